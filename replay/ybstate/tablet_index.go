package ybstate

// tabletIndex finds a tablet's entry by its id. A YugabyteDB tablet id
// is 32 lowercase hex digits (a UUID without its dashes); such an id is
// held as its 16 bytes (idBytes), in a map whose slots hold the keys
// themselves. In a map of strings a key is a pointer to the id's bytes,
// in an allocation of their own: for a node hosting a million tablets, a
// lookup read them (a cache miss) to compare, and each growth of the map
// read every id again to hash it. Any other id (a test's, a log's that
// cut or changed it, the same id in capitals, which is another string and
// so another tablet) is in a map of strings. The zero value is empty and
// ready to use.
type tabletIndex struct {
	hex   map[[idDigits / 2]byte]*tabletEntry
	other map[string]*tabletEntry
}

// get returns id's entry, or nil.
func (x *tabletIndex) get(id string) *tabletEntry {
	var k [idDigits / 2]byte
	if idBytes(id, &k) {
		return x.hex[k]
	}
	return x.other[id]
}

// put makes e id's entry.
func (x *tabletIndex) put(id string, e *tabletEntry) {
	var k [idDigits / 2]byte
	if idBytes(id, &k) {
		if x.hex == nil {
			x.hex = map[[idDigits / 2]byte]*tabletEntry{}
		}
		x.hex[k] = e
		return
	}
	if x.other == nil {
		x.other = map[string]*tabletEntry{}
	}
	x.other[id] = e
}
