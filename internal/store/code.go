package store

// CodeOf classifies an error met on storage (a store *Error, an SQLite
// result code, a file-system errno such as ENOSPC or EROFS) as one of the
// store's codes: CodeFull, CodeReadOnly, CodeBusy, …; anything else is
// CodeUnavailable. Writers of files under storage.path (the audit log)
// report it with their warnings, so a full or read-only disk is named.
func CodeOf(err error) string { return codeOf(err) }
