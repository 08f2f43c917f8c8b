// Package lsp is the reviewls language server: it keeps the review of the
// open workspace current while the user types, saves, stages, commits and
// switches branches, and shows it as diagnostics, hovers, code actions and
// commands.
//
// # Architecture
//
// [Serve] reads JSON-RPC from a stream (stream.go tolerates malformed
// frames, and refuses before decoding a message over 64 MiB or nested
// over 10,000 levels) and dispatches it through go.lsp.dev/protocol to the server.
// Messages are handled one after another (asyncHandler); a handler never
// runs review work itself: it records the change and returns.
//
// State:
//
//   - server.state (stateMu): created → initialized → shutdown. Requests
//     before initialize get ServerNotInitialized; after shutdown
//     InvalidRequest.
//   - server.docs (docsMu): open documents, their version and text.
//   - server.sessions (sessionsMu): one session per workspace folder inside
//     a git repository, each with its own review engine, scheduler,
//     watcher and published diagnostics. A folder is opened as the CLI
//     opens its PATH: it plays git's current directory, and the git
//     environment of the server process (Options.GitEnv: $GIT_DIR,
//     $GIT_WORK_TREE, $GIT_INDEX_FILE, ...) applies to every folder. The
//     watcher follows the git directory's HEAD and index; an index named
//     by $GIT_INDEX_FILE is compared on every refresh instead.
//
// Change funnel: didOpen, didChange, didSave, didClose,
// didChangeWatchedFiles and the fsnotify watcher's batches all become
// modifications passed to session.didModify, which marks paths pending and
// calls schedule. schedule bumps the generation (modID), cancels the
// running review of the previous generation and re-arms one debounce timer
// (the quiet window). When it fires, one worker (sema) runs the engine on
// the pending paths with the open documents as overlays, and drops the
// result if a newer generation exists. The publisher then sends one
// publishDiagnostics per file whose diagnostics changed (or that must be
// republished after an edit), with the document version the review saw,
// and clears files that no longer have findings. Two background phases
// may follow a published review, each publishing again when it ends and
// cancelled by the next change: the type-aware analysis (analysis.go)
// and the model reviewer's second wave (model.go).
//
// Goroutines: the jsonrpc2 connection's reader, one goroutine per message
// (serialised), the debounce timers' callbacks, one review worker at a
// time per session, its analysis and model phases (one of each), the
// watcher's receive loop and batcher, and the client process monitor.
// Each is stopped by shutdown (server.stop) and waited for through
// server.wg.
package lsp
