// Package schema holds the schema snapshot of one datasource: its tables and
// views, their columns with declared and portable types, keys, and an
// optional data profile (row counts, distinct counts, ranges, sample values).
//
// A Snapshot is pure data. Adapters in internal/source build it; the validator
// reads it through planast.Catalog (Snapshot.LookupTable); the prompt and the
// index read it directly. It marshals to JSON with snake_case keys, and
// Fingerprint hashes that JSON, so two snapshots of the same database compare
// equal by fingerprint.
package schema
