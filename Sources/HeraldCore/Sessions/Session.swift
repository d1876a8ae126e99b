import Foundation

/// One login of a user on one device. Its bearer token is stored only as a hash.
public struct Session: Sendable, Equatable {
    public var id: String
    public var appId: String
    public var uid: String
    public var deviceName: String?
    public var createdAt: Date
    public var expiresAt: Date?

    public init(id: String, appId: String, uid: String, deviceName: String? = nil, createdAt: Date, expiresAt: Date? = nil) {
        self.id = id
        self.appId = appId
        self.uid = uid
        self.deviceName = deviceName
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    public func isExpired(at now: Date) -> Bool {
        expiresAt.map { $0 <= now } ?? false
    }
}
