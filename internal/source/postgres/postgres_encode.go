package postgres

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// pgColumn is the encoding column of a result column's type name (see
// pgTypeName).
func pgColumn(decl string) source.Column {
	c := source.Column{Type: schema.NormalizeType(schema.DialectPostgres, decl), Scale: -1, Decl: strings.ToLower(decl)}
	// json and jsonb keep the document's text, every digit kept; arrays
	// become the JSON text of their elements (NormalizeType: json, array)
	if c.Type == planast.TypeUnknown && (pgTextTypes[c.Decl] || strings.HasSuffix(c.Decl, "range")) {
		c.Type = planast.TypeText // their PostgreSQL text
	}
	if sc, ok := schema.DecimalScale(decl); ok && c.Type == planast.TypeDecimal {
		c.Scale = sc
	}
	c.TZ = c.Decl == "timestamptz" || strings.HasSuffix(c.Decl, "with time zone") && c.Type == planast.TypeTimestamp
	return c
}

// pgValue encodes one value as pgx returns it:
//
//   - numeric (pgtype.Numeric) by its exact digits (DecimalText); NaN and
//     ±Infinity the strings "NaN", "Infinity" and "-Infinity";
//   - money as its exact decimal text, xml as its text, ranges as their
//     PostgreSQL text ("[1,10)"), geometric types as their text (column
//     type text); arrays as nested JSON text keeping every dimension (an
//     array whose subscripts do not start at 1 as an object keyed by
//     them, as PostgreSQL writes them: {"[0:2]": [1,2,3]}), and
//     json/jsonb as the document's own text (column type json);
//   - int2, int4, int8, float4, float8, bool, text, bytea, date, timestamp
//     and timestamptz by EncodeValue (timestamptz in UTC with "+00:00");
//     infinite dates and timestamps are "infinity" and "-infinity";
//   - uuid as its canonical text, interval as an ISO 8601 duration, time
//     as "HH:MM:SS[.ffffff]";
//   - arrays and other composite values as the JSON text of their encoded
//     elements; any other type by its text (fmt.Stringer, driver.Valuer).
func pgValue(v any, c source.Column) any {
	switch x := v.(type) {
	case nil:
		return nil
	case pgtype.Numeric:
		if !x.Valid {
			return nil
		}
		t, err := x.Value()
		if err != nil {
			return nil
		}
		s, _ := t.(string)
		return source.DecimalText(atScale(s, c.Scale))
	case pgtype.Interval:
		if !x.Valid {
			return nil
		}
		return source.FormatInterval(int64(x.Months), int64(x.Days), x.Microseconds)
	case pgtype.Time:
		if !x.Valid {
			return nil
		}
		return source.FormatTimeOfDay(x.Microseconds, false, 0)
	case [16]byte:
		return source.UUIDText(x[:])
	case pgtype.Date:
		return infinity(x.Valid, x.InfinityModifier, x.Time, c)
	case pgtype.Timestamp:
		return infinity(x.Valid, x.InfinityModifier, x.Time, c)
	case pgtype.Timestamptz:
		return infinity(x.Valid, x.InfinityModifier, x.Time, c)
	case pgArray:
		if b := x.bounds(); b != "" {
			return source.JSONText(map[string]any{b: x.nested()}, pgValue)
		}
		return source.JSONText(x.nested(), pgValue)
	case pgtype.Range[any]:
		if !x.Valid {
			return nil
		}
		bound := source.Column{Type: planast.TypeUnknown, Scale: -1, TZ: c.Decl == "tstzrange"}
		if c.Decl == "daterange" || c.Decl == "datemultirange" {
			bound.Type = planast.TypeDate // a day, never a midnight timestamp
		}
		return rangeText(x, func(b any) any { return pgValue(b, bound) })
	case []any, map[string]any:
		return source.JSONText(x, pgValue)
	case json.Number: // money, already an exact decimal (DecimalText)
		return x
	case int64, int32, int16, int8, int, uint32, uint64, float64, float32, string, []byte, bool, time.Time:
		return source.EncodeValue(x, c)
	case fmt.Stringer:
		return x.String()
	case driver.Valuer:
		t, err := x.Value()
		if err != nil {
			return fmt.Sprint(v)
		}
		return pgValue(t, c)
	}
	return source.EncodeValue(v, c)
}

// pgTextTypes are types whose values a result holds as their PostgreSQL
// text (geometric types, ranges and the like), typed text.
var pgTextTypes = map[string]bool{"point": true, "line": true, "lseg": true, "box": true, "path": true,
	"polygon": true, "circle": true, "tsvector": true, "tsquery": true, "macaddr8": true, "pg_lsn": true}

// infinity encodes a date or timestamp that may be infinite.
func infinity(valid bool, inf pgtype.InfinityModifier, t time.Time, c source.Column) any {
	switch {
	case !valid:
		return nil
	case inf == pgtype.Infinity:
		return "infinity"
	case inf == pgtype.NegativeInfinity:
		return "-infinity"
	}
	return source.EncodeValue(t, c)
}

// atScale writes a numeric of a column declared with a scale at that scale,
// as PostgreSQL does: pgx decodes a zero of numeric(30,10) as "0" (the wire
// carries no digits for it), where psql shows 0.0000000000. Text with
// more fraction digits, NaN and the infinities are left as they are.
func atScale(s string, scale int) string {
	if scale <= 0 || s == "" || strings.ContainsAny(s, "NIne") {
		return s
	}
	_, frac, dot := strings.Cut(s, ".")
	if len(frac) >= scale {
		return s
	}
	if !dot {
		s += "."
	}
	return s + strings.Repeat("0", scale-len(frac))
}
