import Foundation

/// Storage of the Matrix push gateway: app id bindings, and the pushkeys a provider declared
/// dead (rejected to the homeserver at once on their next notify).
public protocol MatrixRepository: Sendable {
    /// Binds (or rebinds) a Matrix app id; false when another Herald app holds it.
    func putMatrixAppId(_ binding: MatrixAppBinding) async throws -> Bool
    /// One app's bindings, or every binding (nil).
    func matrixAppIds(appId: String?) async throws -> [MatrixAppBinding]
    func deleteMatrixAppId(appId: String, pattern: String) async throws -> Bool
    /// Remembers dead pushkeys of Matrix app ids.
    func rejectPushkeys(_ pushkeys: [(matrixAppId: String, pushkey: String, reason: String)], at: Date) async throws
    /// Of these (app id, pushkey) pairs, those remembered dead, as `appId\u{0}pushkey`.
    func rejectedPushkeys(_ pairs: [(matrixAppId: String, pushkey: String)]) async throws -> Set<String>
}
