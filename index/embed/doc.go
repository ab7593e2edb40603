// Package embed holds the remote embedders of retrieval: Ollama (POST
// /api/embed) and OpenAI (POST /v1/embeddings), each satisfying
// index.Embedder. The built-in offline embedder, index.NGram, stays in
// index because it embeds with index's own word splitting and folding.
//
// It owns the wire of each provider (through their official clients), the
// checks of RemoteOptions (a model, an http or https base URL) and the name
// an index records so it is never queried with another model. It never
// normalises vectors, batches texts or caches anything: index does that
// (embedAll), and it never reads configuration: the composition root
// (internal/app) builds an embedder from the llm.embed entry.
//
// For example:
//
//	e, err := embed.NewOllama(embed.RemoteOptions{
//		BaseURL: "http://127.0.0.1:11434", Model: "nomic-embed-text"})
//	if err != nil {
//		return err // no model, or a base URL that is not http(s)
//	}
//	ix, err := index.Build(ctx, snap, e, index.Options{})
//	// ix.Embedder() == "ollama:nomic-embed-text"
package embed
