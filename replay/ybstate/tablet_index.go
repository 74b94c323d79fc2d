package ybstate

// tabletIndex finds a tablet's entry by its id. A YugabyteDB tablet id
// is 32 lowercase hex digits (a UUID without its dashes); such an id is
// held as its 16 bytes, in a map whose slots hold the keys themselves.
// In a map of strings a key is a pointer to the id's bytes, in an
// allocation of their own: for a node hosting a million tablets, a
// lookup read them (a cache miss) to compare, and each growth of the map
// read every id again to hash it. Any other id (a test's, a log's that
// cut or changed it) is in a map of strings. The zero value is empty and
// ready to use.
type tabletIndex struct {
	hex   map[[16]byte]*tabletEntry
	other map[string]*tabletEntry
}

// get returns id's entry, or nil.
func (x *tabletIndex) get(id string) *tabletEntry {
	if k, ok := hexID(id); ok {
		return x.hex[k]
	}
	return x.other[id]
}

// put makes e id's entry.
func (x *tabletIndex) put(id string, e *tabletEntry) {
	if k, ok := hexID(id); ok {
		if x.hex == nil {
			x.hex = map[[16]byte]*tabletEntry{}
		}
		x.hex[k] = e
		return
	}
	if x.other == nil {
		x.other = map[string]*tabletEntry{}
	}
	x.other[id] = e
}

// hexID returns the 16 bytes a tablet id of 32 lowercase hex digits
// spells, and false for any other id: an id in capitals is another
// string, and so another tablet, than the same id in lowercase.
func hexID(id string) (k [16]byte, ok bool) {
	if len(id) != 32 {
		return k, false
	}
	for i := range k {
		hi, lo := hexDigit[id[2*i]], hexDigit[id[2*i+1]]
		if hi|lo > 0x0f {
			return k, false
		}
		k[i] = hi<<4 | lo
	}
	return k, true
}

// hexDigit is the value of a lowercase hex digit, and 0xff for any other
// byte.
var hexDigit = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c - '0'
	}
	for c := byte('a'); c <= 'f'; c++ {
		t[c] = c - 'a' + 10
	}
	return t
}()
