import HeraldCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import PostgresKit
import SQLiteKit
import SQLKit
import Synchronization

/// Hands out an `SQLDatabase` that is one session (one connection) for the closure's duration.
protocol ConnectionSource: Sendable {
    var dialect: Dialect { get }
    func withConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    /// A connection for reads only, which may run alongside writes.
    func withReadConnection<T: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> T) async throws -> T
    func shutdown() async throws
}
