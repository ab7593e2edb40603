package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nl2sql/nl2sql/internal/schema"
	"github.com/nl2sql/nl2sql/internal/store"
)

func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "state")
	defer os.RemoveAll(dir)

	st, err := store.Open(ctx, dir, store.WithDisplayPath("data/state"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()

	rows := int64(347)
	snap := &schema.Snapshot{Datasource: "chinook", Dialect: schema.DialectSQLite, Tables: []schema.Table{{
		Schema: "main", Name: "Album", Kind: schema.KindTable, RowCount: &rows,
		Columns: []schema.Column{{Name: "AlbumId", DeclaredType: "INTEGER", Type: "integer"}},
	}}}
	_, created, _ := st.PutSnapshot(ctx, snap)
	fmt.Println("first put created:", created)
	version, created, _ := st.PutSnapshot(ctx, snap)
	fmt.Println("second put created:", created, "same version:", version == snap.Fingerprint())

	_, meta, _ := st.LatestSnapshot(ctx, "chinook")
	now := meta.ProfiledAt.Add(time.Hour)
	fmt.Println("needs profile, same counts:", store.NeedsProfile(meta, map[string]int64{"main.Album": 347}, 24*time.Hour, now))
	fmt.Println("needs profile, a row added:", store.NeedsProfile(meta, map[string]int64{"main.Album": 348}, 24*time.Hour, now))

	key := store.PlanKey{Intent: "albums per artist", Datasource: "chinook", SchemaVersion: version, Today: "2026-03-01"}
	_ = st.PutPlan(ctx, key, []byte(`{"tables":["Album"]}`))
	plan, ok, _ := st.GetPlan(ctx, key)
	fmt.Println("plan cached:", ok, string(plan))

	_, _, err = st.LatestSnapshot(ctx, "nope")
	fmt.Println(errors.Is(err, store.ErrNotFound), err)
	// Output:
	// first put created: true
	// second put created: false same version: true
	// needs profile, same counts: false
	// needs profile, a row added: true
	// plan cached: true {"tables":["Album"]}
	// true STORE_NOT_FOUND: no snapshot of datasource "nope" is stored in data/state/state.db
}
