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
// running and waits for them. It never decides what opening a datasource
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
//	for id, ds := range s.Close() { … } // every open stopped first
package opening
