package duckdb

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/nl2sql/nl2sql/internal/source"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/planast"
)

// duckdbColumn is the encoding column of a DuckDB type name as the driver
// reports it ("DECIMAL(12,2)", "TIMESTAMPTZ", "INTEGER[]").
func duckdbColumn(decl string) source.Column {
	c := source.Column{Type: schema.NormalizeType(schema.DialectDuckDB, decl), Scale: -1, Decl: strings.ToUpper(strings.TrimSpace(decl))}
	// lists and arrays (array), structs, maps, unions and JSON (json) are
	// their JSON text (NormalizeType)
	if sc, ok := schema.DecimalScale(decl); ok && c.Type == planast.TypeDecimal {
		c.Scale = sc
	}
	c.TZ = c.Decl == "TIMESTAMPTZ" || c.Decl == "TIMESTAMP WITH TIME ZONE"
	return c
}

// duckdbValue encodes one value as duckdb-go returns it:
//
//   - DECIMAL (duckdb.Decimal) by its exact digits (DecimalText);
//   - HUGEINT, UHUGEINT, BIGNUM (*big.Int) and UBIGINT (uint64) as
//     integers, digits as a string beyond 2^53;
//   - UUID (16 bytes) as its 8-4-4-4-12 hex text;
//   - INTERVAL as an ISO 8601 duration (FormatInterval);
//   - TIME as "HH:MM:SS[.ffffff]", TIMETZ with its offset;
//   - JSON as its JSON text; LIST, ARRAY, STRUCT, MAP and UNION values as
//     the JSON text of their encoded elements;
//   - everything else by EncodeValue.
func duckdbValue(v any, c source.Column) any {
	if v == nil {
		return nil
	}
	if c.Decl == "JSON" {
		if s, ok := v.(string); ok {
			return s
		}
		return source.JSONText(v, duckNestedValue)
	}
	switch x := v.(type) {
	case duckdb.Decimal:
		if x.Value == nil {
			return nil
		}
		return source.DecimalText(source.UnscaledText(x.Value, int(x.Scale)))
	case duckdb.Interval:
		return source.FormatInterval(int64(x.Months), int64(x.Days), x.Micros)
	case duckdb.UUID:
		return source.UUIDText(x[:])
	case []byte:
		if c.Decl == "UUID" && len(x) == 16 {
			return source.UUIDText(x)
		}
	case time.Time:
		if inf, ok := duckInfinity(x, c); ok {
			return inf
		}
		switch c.Decl {
		case "TIME", "TIME WITHOUT TIME ZONE":
			return source.FormatTimeOfDay(microsOfDay(x), false, 0)
		case "TIMETZ", "TIME WITH TIME ZONE":
			_, off := x.Zone()
			return source.FormatTimeOfDay(microsOfDay(x), true, off)
		}
	case []any, map[string]any, duckdb.Map, duckdb.OrderedMap, duckdb.Union:
		return source.JSONText(v, duckNestedValue)
	}
	return source.EncodeValue(v, c)
}

// duckInfinity recognises DuckDB's infinite dates and timestamps, which
// the driver returns as the extreme times they are stored as (date
// 'infinity' is 5881580-07-11): "infinity" and "-infinity", as PostgreSQL
// writes them, never an absurd calendar date.
func duckInfinity(t time.Time, c source.Column) (string, bool) {
	switch c.Type {
	case planast.TypeDate:
		days := t.Unix() / 86400
		switch days {
		case math.MaxInt32:
			return "infinity", true
		case -math.MaxInt32:
			return "-infinity", true
		}
	case planast.TypeTimestamp:
		switch t.UnixMicro() {
		case math.MaxInt64:
			return "infinity", true
		case -math.MaxInt64:
			return "-infinity", true
		}
	}
	return "", false
}

// microsOfDay is t's time of day in microseconds.
func microsOfDay(t time.Time) int64 {
	return int64(t.Hour())*3_600_000_000 + int64(t.Minute())*60_000_000 + int64(t.Second())*1_000_000 + int64(t.Nanosecond()/1000)
}

// duckNestedValue is duckdbValue for the elements of a nested value, with
// DuckDB's own containers made JSON objects: a MAP (each key written as
// its encoded value's text) and a UNION (an object of its member's tag).
func duckNestedValue(v any, c source.Column) any {
	switch x := v.(type) {
	case duckdb.Map:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(source.Nested(k, duckNestedValue))] = source.Nested(e, duckNestedValue)
		}
		return out
	case duckdb.OrderedMap:
		out := make(map[string]any, x.Len())
		keys, vals := x.Keys(), x.Values()
		for i := range keys {
			out[fmt.Sprint(source.Nested(keys[i], duckNestedValue))] = source.Nested(vals[i], duckNestedValue)
		}
		return out
	case duckdb.Union:
		return map[string]any{x.Tag: source.Nested(x.Value, duckNestedValue)}
	}
	return duckdbValue(v, c)
}
