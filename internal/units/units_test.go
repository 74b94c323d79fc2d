package units

import "testing"

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0:             "0 B",
		1023:          "1023 B",
		1024:          "1.0 KiB",
		1536:          "1.5 KiB",
		3 << 29:       "1.5 GiB",
		1<<63 - 1:     "8.0 EiB",
		256 << 20:     "256.0 MiB",
		1<<40 + 1<<39: "1.5 TiB",
	} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
