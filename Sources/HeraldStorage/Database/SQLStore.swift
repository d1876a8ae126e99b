import Foundation
import HeraldCore
import HeraldModels
import Logging
import SQLKit

/// Herald's repositories, written once on SQLKit, for SQLite and PostgreSQL.
public final class SQLStore: Sendable {
    let source: any ConnectionSource
    let logger: Logger
    /// This process among those sharing the database: its claims and presence carry this id.
    public let instance: String
    let cache = StoreCache()
    /// Cache changes to and from the other processes (PostgreSQL).
    let cacheBus: CacheBus?
    private let cacheListener: Task<Void, Never>?
    /// Copies SQLite's new deliveries into its log by user (``DeliveryUserIndex``).
    private let deliveryUsersIndexer: Task<Void, Never>?
    /// PostgreSQL's token registrations, stored in batches (a login storm's round trips shared).
    let registrations = GroupCommit<TokenRequest, (TokenRegistration, told: Bool)>(maxBatch: 256)

    var dialect: Dialect { source.dialect }

    /// Whether the delivery log by user is ``DeliveryUserIndex``'s table, copied in sorted
    /// batches (SQLite), rather than an index of `deliveries` (PostgreSQL).
    var deliveriesByUserCopied: Bool { deliveryUsersIndexer != nil }

    /// Opens the database and applies pending migrations.
    public static func open(_ url: DatabaseURL, logger: Logger = Logger(label: "herald.storage"), migrate: Bool = true) async throws -> SQLStore {
        let source: any ConnectionSource
        switch url {
        case .sqlite(let path): source = try SQLitePool(path: path, logger: logger)
        case .postgres(let text): source = try PostgresSource(url: text, logger: logger)
        }
        let store = SQLStore(source: source, logger: logger)
        if migrate {
            do {
                try await store.migrate()
            } catch {
                try? await store.shutdown()
                throw error
            }
        }
        return store
    }

    init(source: any ConnectionSource, logger: Logger) {
        self.source = source
        self.logger = logger
        self.instance = "h" + Identifier.hex(bytes: 6)
        if let postgres = source as? PostgresSource {
            let bus = CacheBus(instance: instance, source: postgres, cache: cache, logger: logger)
            self.cacheBus = bus
            self.cacheListener = Task { await bus.run() }
        } else {
            self.cacheBus = nil
            self.cacheListener = nil
        }
        self.deliveryUsersIndexer = source.dialect == .sqlite ? Task { await DeliveryUserIndex.run(source, logger: logger) } : nil
    }

    public func shutdown() async throws {
        cacheListener?.cancel()
        await cacheListener?.value
        deliveryUsersIndexer?.cancel()
        await deliveryUsersIndexer?.value
        try await source.shutdown()
    }

    /// Whether the caches may be read: this process hears every change made by the others
    /// (always on SQLite, where it is the only one).
    var cachesHeard: Bool { cacheBus?.isListening ?? true }

    /// What a write changed is dropped from this process's caches and, on PostgreSQL, from the
    /// others' (for a strict change, before this returns).
    func changed(_ changes: CacheChange...) async {
        for change in changes {
            cache.apply(change)
            await cacheBus?.publish(change)
        }
    }

    /// Values of `keys`, from `table` when cached, the rest loaded by `load` (which must give a
    /// value for every key it is asked, absent ones included) and kept.
    func cached<Key: Hashable & Sendable, Value: Sendable>(
        _ table: CacheTable<Key, Value>,
        _ keys: [Key],
        load: ([Key]) async throws -> [Key: Value]
    ) async throws -> [Key: Value] {
        try await cached(table, keys, key: { $0 }, present: { $0 }, load: load)
    }

    /// The same for values a caller knows by a part of their key (a user's by uid): `key` makes
    /// each id's key, and the values come back by id, as `present` makes them (nil leaves one
    /// out).
    func cached<ID: Hashable & Sendable, Key: Hashable & Sendable, Value: Sendable, Found>(
        _ table: CacheTable<Key, Value>,
        _ ids: [ID],
        key: (ID) -> Key,
        present: (Value) -> Found?,
        load: ([ID]) async throws -> [ID: Value]
    ) async throws -> [ID: Found] {
        guard cachesHeard else { return try await load(ids).compactMapValues(present) }
        var (found, missing, epoch) = table.lookup(ids, key: key, present: present)
        guard !missing.isEmpty else { return found }
        let loaded = try await load(missing)
        table.store(Dictionary(uniqueKeysWithValues: loaded.map { (key($0.key), $0.value) }), loadedAt: epoch)
        for (id, value) in loaded {
            if let value = present(value) { found[id] = value }
        }
        return found
    }

    /// True when the database answers.
    public func ping() async -> Bool {
        do {
            _ = try await lookup { db in try await db.rows(SQLRaw("SELECT 1 AS ok")) }
            return true
        } catch {
            return false
        }
    }

    /// Runs read-only statements on a connection that may read alongside writes (SQLite: a
    /// reader connection that sees the last commit).
    func lookup<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await source.read(body)
    }

    /// Runs statements that may write, each atomic by itself (SQLite: in the writer's current
    /// transaction, with the other writes of its tick).
    func write<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await source.write(body)
    }

    /// Runs statements in one transaction: committed if the body returns, rolled back if it
    /// throws. SQLite holds its write lock for the whole tick, so read-then-write bodies are safe.
    func transaction<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await source.transaction(body)
    }

    /// Runs a claim: statements that take the oldest due rows up to a limit, each through a
    /// partial index of its status (`events_pending`, `deliveries_due`, …), in one transaction.
    ///
    /// PostgreSQL plans by statistics that lag a backlog: analysed when few rows were due (or
    /// never, on a new table), it estimates a handful and reads them all through a bitmap, then
    /// sorts them, to keep the oldest few hundred. With 100,000 events waiting, each event claim
    /// read and sorted all of them, spilling to disk: measured, 33 ms a claim, nearly a third of
    /// PostgreSQL's statement time in a burst. An index scan in the index's order stops at the
    /// limit whatever the table holds, so a claim's transaction plans with bitmap and sequential
    /// scans off (`set_config(…, true)`: for this transaction only).
    func claimTransaction<T: Sendable>(_ body: nonisolated(nonsending) @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        guard dialect == .postgres else { return try await transaction(body) }
        return try await transaction { db in
            try await db.raw(Self.claimPlanning).perform()
            return try await body(db)
        }
    }

    /// What a PostgreSQL claim's transaction plans with (``claimTransaction(_:)``).
    static let claimPlanning: SQLQueryString = "SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)"

    /// ` FOR UPDATE` where the database has row locks (PostgreSQL); SQLite's transactions are serial.
    var forUpdate: String { dialect == .postgres ? " FOR UPDATE" : "" }
    /// ` FOR UPDATE SKIP LOCKED` where the database has row locks (PostgreSQL): a claim passes over
    /// rows another process is claiming. SQLite's transactions are serial.
    var skipLocked: String { dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : "" }
    /// Whether a transaction's rows are written in key order: PostgreSQL locks each row it writes
    /// until the commit, so two transactions writing the same rows in different orders could each
    /// wait for the other. SQLite's one writer locks no rows, and sorting cost a 1:1 push's
    /// fan-out commit ~0.2 µs of its ~60.
    var locksRowsInOrder: Bool { dialect == .postgres }

    /// `column IN (values)`. On SQLite the values go in as one bind, a JSON array `json_each`
    /// reads, so that the statement's text is the same for every list and stays prepared: as a
    /// bind each, a batch's ids made a statement SQLite parsed anew every time (the fan-out's
    /// event update: ~0.5 µs a push of its 2.6, sql-costs.sh). PostgreSQL takes a bind each.
    func oneOf(_ column: String, _ values: [String]) -> any SQLExpression {
        // `IN ()` is not SQL PostgreSQL reads.
        guard !values.isEmpty else { return SQLRaw("1 = 0") }
        guard dialect == .sqlite else { return SQLBinaryExpression(SQLIdentifier(column), .in, SQLBind.group(values)) }
        return SQLBinaryExpression(SQLIdentifier(column), .in, SQLQueryString("(SELECT value FROM json_each(\(bind: Self.jsonArray(values))))"))
    }

    /// The values as a JSON array's text.
    static func jsonArray(_ values: [String]) -> String {
        var text: [UInt8] = [UInt8(ascii: "[")]
        text.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        for index in values.indices {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            JSONValue.write(string: values[index], into: &text)
        }
        text.append(UInt8(ascii: "]"))
        return String(decoding: text, as: UTF8.self)
    }
}

// MARK: Row helpers

extension SQLRow {
    func string(_ column: String) throws -> String { try decode(column: column, as: String.self) }
    // Optionals are read as "is it null, else the value": decoding `T?` goes through a nested
    // decoder allocated per column, several times slower on rows read by the thousand.
    func optionalString(_ column: String) throws -> String? { try decodeNil(column: column) ? nil : decode(column: column, as: String.self) }
    func optionalInt(_ column: String) throws -> Int? { try decodeNil(column: column) ? nil : Int(decode(column: column, as: Int64.self)) }
    func int(_ column: String) throws -> Int { Int(try decode(column: column, as: Int64.self)) }
    func bool(_ column: String) throws -> Bool { try decode(column: column, as: Bool.self) }
    func date(_ column: String) throws -> Date { Date(millisecondsSince1970: try decode(column: column, as: Int64.self)) }
    func optionalDate(_ column: String) throws -> Date? {
        try decodeNil(column: column) ? nil : Date(millisecondsSince1970: try decode(column: column, as: Int64.self))
    }
}

extension Date {
    var ms: Int64 { millisecondsSince1970 }
}
