package postgres

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"net/netip"
	"strings"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// PostgreSQL type OIDs pgx has no codec for (or one whose Go value loses
// the value's meaning), read from the wire text instead.
const (
	pgXMLOID   = 142
	pgMoneyOID = 790
)

// pgRowValues decodes one row column by column. JSON and XML keep their
// text (pgx would decode JSON into Go maps, losing key order and number
// digits, and fail the whole query on a number beyond a double); arrays
// keep their dimensions (pgx flattens {{1,2},{3,4}}); ranges become their
// PostgreSQL text; money its exact decimal text; a type pgx does not know
// (enums, domains of extensions) its text.
func pgRowValues(m *pgtype.Map, fds []pgconn.FieldDescription, raws [][]byte) ([]any, error) {
	out := make([]any, len(fds))
	for i, fd := range fds {
		raw := raws[i]
		if raw == nil {
			continue
		}
		if text, ok := pgJSONText(fd, raw); ok {
			out[i] = text
			continue
		}
		t, known := m.TypeForOID(fd.DataTypeOID)
		switch {
		case fd.DataTypeOID == pgXMLOID && fd.Format == pgx.TextFormatCode:
			out[i] = string(raw)
			continue
		case fd.DataTypeOID == pgtype.NumericOID && fd.Format == pgx.BinaryFormatCode && len(raw) >= 8 && binary.BigEndian.Uint16(raw) == 0 && binary.BigEndian.Uint16(raw[4:]) == 0:
			// a zero: pgx reads it without its scale, and a computed
			// NUMERIC(12,4) zero (price * 2) came back as 0 beside 241.0000
			out[i] = source.DecimalText(source.UnscaledText(new(big.Int), int(binary.BigEndian.Uint16(raw[6:]))))
			continue
		case fd.DataTypeOID == pgMoneyOID && fd.Format == pgx.TextFormatCode:
			out[i] = source.DecimalText(moneyText(string(raw))) // the decimal rule, as numeric
			continue
		case !known:
			if fd.Format == pgx.TextFormatCode {
				out[i] = string(raw)
			} else {
				out[i] = raw
			}
			continue
		}
		if _, isArray := t.Codec.(*pgtype.ArrayCodec); isArray {
			var a pgtype.Array[any]
			if err := m.Scan(fd.DataTypeOID, fd.Format, raw, &a); err == nil && a.Valid {
				out[i] = pgArray{a}
				continue
			}
		}
		v, err := t.Codec.DecodeValue(m, fd.DataTypeOID, fd.Format, raw)
		if err != nil {
			return nil, fmt.Errorf("decode column %q (%s): %w", fd.Name, t.Name, err)
		}
		if p, ok := v.(netip.Prefix); ok && fd.DataTypeOID == pgtype.InetOID && p.Bits() == p.Addr().BitLen() {
			// an inet host address is written without its full mask, as
			// PostgreSQL writes it ('10.0.0.1', not '10.0.0.1/32'); a
			// cidr always carries its mask
			v = p.Addr().String()
		}
		out[i] = v
	}
	return out, nil
}

// pgArray is an array value with its dimensions, for pgValue to write as
// nested JSON.
type pgArray struct{ a pgtype.Array[any] }

// bounds is the array's subscripts as PostgreSQL writes them ("[0:2]",
// "[0:1][1:2]") when one dimension does not start at 1, else "": a[1] of
// '[0:2]={1,2,3}' is 2, so a plain list [1,2,3] would tell a reader the
// wrong element for every subscript.
func (p pgArray) bounds() string {
	var b strings.Builder
	shifted := false
	for _, d := range p.a.Dims {
		shifted = shifted || d.LowerBound != 1
		fmt.Fprintf(&b, "[%d:%d]", d.LowerBound, int64(d.LowerBound)+int64(d.Length)-1)
	}
	if !shifted {
		return ""
	}
	return b.String()
}

// nested returns the elements as nested lists, one level per dimension.
func (p pgArray) nested() []any {
	elems := p.a.Elements
	dims := p.a.Dims
	if len(dims) <= 1 {
		return append([]any{}, elems...)
	}
	var build func(d int, off int) ([]any, int)
	build = func(d int, off int) ([]any, int) {
		n := int(dims[d].Length)
		out := make([]any, 0, n)
		for range n {
			if d == len(dims)-1 {
				out = append(out, elems[off])
				off++
				continue
			}
			var sub []any
			sub, off = build(d+1, off)
			out = append(out, sub)
		}
		return out, off
	}
	out, _ := build(0, 0)
	return out
}

// moneyText turns money's display text ("-$1,234.56", "($1,234.56)",
// "1.234,56 €" is not handled: lc_monetary must use "." for decimals, as
// the C and English locales do) into its decimal text "-1234.56".
func moneyText(s string) string {
	neg := strings.Contains(s, "-") || strings.HasPrefix(strings.TrimSpace(s), "(")
	var b strings.Builder
	for _, r := range s {
		if r >= '0' && r <= '9' || r == '.' {
			b.WriteRune(r)
		}
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// rangeText writes a range as PostgreSQL prints it: "[1,10)", "empty",
// "(,5]" for an unbounded lower end; bounds are encoded by enc first.
func rangeText(r pgtype.Range[any], enc func(any) any) string {
	if r.LowerType == pgtype.Empty {
		return "empty"
	}
	var b strings.Builder
	if r.LowerType == pgtype.Inclusive {
		b.WriteByte('[')
	} else {
		b.WriteByte('(')
	}
	if r.LowerType != pgtype.Unbounded {
		b.WriteString(fmt.Sprint(enc(r.Lower)))
	}
	b.WriteByte(',')
	if r.UpperType != pgtype.Unbounded {
		b.WriteString(fmt.Sprint(enc(r.Upper)))
	}
	if r.UpperType == pgtype.Inclusive {
		b.WriteByte(']')
	} else {
		b.WriteByte(')')
	}
	return b.String()
}
