import Foundation

/// The storage ports. HeraldStorage implements them once on SQLKit for SQLite and PostgreSQL.

/// Everything the server needs from storage.
public typealias HeraldRepositories = AppRepository & UserRepository & GroupRepository & SessionRepository
    & ProviderRepository & PushTokenRepository
