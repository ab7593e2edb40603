// Package opening opens datasources in the background, once each, so that
// a slow open (a big catalog being profiled and indexed) never holds up
// the requests on the others.
//
// It owns the set of opened datasources and the opens in progress (Set):
// an open runs in its own goroutine, detached from the caller that started
// it, at most MaxConcurrent at once; callers wait for it at most their
// wait, or until their context ends with a report about every half second
// (WithWaitProgress), and then get the retryable DATASOURCE_INDEXING error
// saying how far the open got (Progress). Close cancels the opens still
// running and waits for them. Renew opens a datasource again (its schema
// changed) while the opened value goes on answering; the new value
// replaces it once ready, and the replaced one is released RetireAfter
// later, so calls still running on it finish. An open that failed is
// remembered until one succeeds: a caller that stops waiting for the next
// attempt is told that failure (retryable), not "still being opened". It never decides what opening a datasource
// means: the engine hands New the function that opens one (the adapter,
// the snapshot, the retrieval index) and the one that closes it.
//
// Worked example:
//
//	s := opening.New(openDatasource, closeDatasource)
//	ds, err := s.Await(ctx, "big", time.Second)
//	// first call: the open starts; after 1 s err is DATASOURCE_INDEXING,
//	// "datasource \"big\" is still being opened (indexing: table 812 of 2000, 1s so far)"
//	ds, err = s.Await(ctx, "chinook", time.Second) // answers meanwhile
//	ds, err = s.Renew(ctx, "chinook", time.Second) // its schema changed:
//	// the new value when it is ready within 1 s, else the old one still
//	for id, ds := range s.Close() { … } // every open stopped first
package opening
