package source

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/nl2sql/nl2sql/planast"
)

func TestEncodeValue(t *testing.T) {
	plain := Column{Type: planast.TypeUnknown, Scale: -1}
	dec2 := Column{Type: planast.TypeDecimal, Scale: 2}
	dec := Column{Type: planast.TypeDecimal, Scale: -1}
	date := Column{Type: planast.TypeDate, Scale: -1}
	ts := Column{Type: planast.TypeTimestamp, Scale: -1}
	boolean := Column{Type: planast.TypeBoolean, Scale: -1}
	plus2 := time.FixedZone("", 2*3600)
	a, b := 0.1, 0.2
	noisy := a + b // 0.30000000000000004 (constants would fold to 0.3)
	tests := []struct {
		name string
		v    any
		col  Column
		want string // JSON
	}{
		{"nil", nil, plain, `null`},
		{"small int", int64(42), plain, `42`},
		{"max exact int", int64(1<<53 - 1), plain, `9007199254740991`},
		{"2^53", int64(1 << 53), plain, `"9007199254740992"`},
		{"min exact int", int64(-(1<<53 - 1)), plain, `-9007199254740991`},
		{"below min exact", int64(-(1<<53 + 1)), plain, `"-9007199254740993"`},
		{"int in decimal column", int64(12345678901234568), dec2, `"12345678901234568.00"`},
		{"float", 0.1, plain, `0.1`},
		{"float noise kept", noisy, plain, `0.30000000000000004`},
		{"+inf", math.Inf(1), plain, `"Infinity"`},
		{"-inf", math.Inf(-1), plain, `"-Infinity"`},
		{"nan", math.NaN(), plain, `"NaN"`},
		{"decimal exact at scale", 9.99, dec2, `9.99`},
		{"decimal 0.10", 0.1, dec2, `0.10`},
		{"decimal not at scale", noisy, dec2, `"0.30000000000000004"`},
		{"decimal too many digits", 12345678901234567.0, dec2, `"12345678901234568"`},
		{"decimal 15 digits", 1234567890123.45, dec2, `1234567890123.45`},
		{"decimal no scale", 2.5, dec, `2.5`},
		{"decimal no scale noisy", noisy, dec, `"0.30000000000000004"`},
		{"text stays text", "00123", plain, `"00123"`},
		{"text json", `{"a":1}`, plain, `"{\"a\":1}"`},
		{"text null", "null", plain, `"null"`},
		{"text stored date", "2024-02-29", date, `"2024-02-29"`},
		{"bytes", []byte{0, 255}, plain, `"AP8="`},
		{"date", time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), date, `"2024-02-29"`},
		{"date with time", time.Date(2024, 2, 29, 10, 30, 0, 0, time.UTC), date, `"2024-02-29 10:30:00"`},
		{"timestamp midnight", time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC), ts, `"2021-01-01 00:00:00"`},
		{"timestamp fraction", time.Date(2021, 1, 1, 1, 2, 3, 500_000_000, time.UTC), ts, `"2021-01-01 01:02:03.5"`},
		{"timestamp offset", time.Date(2021, 1, 1, 1, 2, 3, 0, plus2), ts, `"2021-01-01 01:02:03+02:00"`},
		{"bool column 1", int64(1), boolean, `true`},
		{"bool column 0", int64(0), boolean, `false`},
		{"bool column 2", int64(2), boolean, `2`},
		{"bool", true, plain, `true`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(EncodeValue(tt.v, tt.col))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if string(b) != tt.want {
			t.Errorf("%s: encodeValue(%v) = %s, want %s", tt.name, tt.v, b, tt.want)
		}
	}
}

func TestSignificantDigits(t *testing.T) {
	tests := []struct {
		s string
		n int
	}{{"0.10", 2}, {"9.99", 3}, {"-1.00", 3}, {"0.00", 0}, {"12345678901234568.00", 19}, {"100", 3}, {"0.001", 1}}
	for _, tt := range tests {
		if got := significantDigits(tt.s); got != tt.n {
			t.Errorf("significantDigits(%q) = %d, want %d", tt.s, got, tt.n)
		}
	}
}

func TestValueType(t *testing.T) {
	tests := []struct {
		v    any
		want planast.Type
	}{
		{int64(1), planast.TypeInteger}, {1.5, planast.TypeFloat}, {"x", planast.TypeText},
		{[]byte{1}, planast.TypeBlob}, {time.Now(), planast.TypeTimestamp}, {true, planast.TypeBoolean},
		{nil, planast.TypeUnknown},
	}
	for _, tt := range tests {
		if got := valueType(tt.v); got != tt.want {
			t.Errorf("valueType(%T) = %s, want %s", tt.v, got, tt.want)
		}
	}
}
