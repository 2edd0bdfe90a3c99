-- Full-text search of context documents (context.search): a GIN index over the 'simple' tsvector of the text
-- (no stemming, as SQLite's FTS5 tokenizer). A tsvector holds at most 1 MB, so the index covers the first
-- 200,000 characters of each document; the store's query uses the same expression.
CREATE INDEX "context_documents_search_idx" ON "context_documents" USING gin (to_tsvector('simple', left("text", 200000)));
