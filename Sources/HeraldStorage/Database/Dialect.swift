/// The SQL Herald's repositories are written for: one of the two databases it runs on.
enum Dialect: Sendable {
    case sqlite
    case postgres
}
