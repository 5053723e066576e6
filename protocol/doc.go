// Package protocol holds every message a felt house sends or receives as JSON:
// on its WebSocket (docs/protocol.md, "WebSocket"), and between the nodes of a
// house on several nodes (the relay of a player's messages, docs/scaling.md).
// The house (internal/web, internal/table, internal/lobby, internal/chat,
// internal/node) encodes these types and bot clients (feltclient) decode them.
//
// The package is types only: transports decode a message, call the package
// whose rule it is, and encode the answer. It lives at the repository's root,
// not under internal/, so that a program outside felt can import it.
//
// docs/protocol.md's "Message reference" lists each type with its JSON fields;
// a test checks that the list and the types agree.
package protocol
