import Foundation
import HeraldCore

/// APNs's `reason` strings, with a fallback for reasons Apple adds later.
public enum APNsReason: Sendable, Hashable {
    case badCollapseId, badDeviceToken, badExpirationDate, badMessageId, badPriority, badTopic
    case deviceTokenNotForTopic, duplicateHeaders, idleTimeout, invalidPushType, missingDeviceToken
    case missingTopic, payloadEmpty, topicDisallowed
    case badCertificate, badCertificateEnvironment, expiredProviderToken, forbidden, invalidProviderToken
    case missingProviderToken, unrelatedKeyIdInToken, badEnvironmentKeyIdInToken
    case badPath, methodNotAllowed
    case expiredToken, unregistered
    case payloadTooLarge
    case tooManyProviderTokenUpdates, tooManyRequests
    case internalServerError, serviceUnavailable, shutdown
    case unknown(String)

    private static let byName: [String: APNsReason] = [
        "BadCollapseId": .badCollapseId, "BadDeviceToken": .badDeviceToken, "BadExpirationDate": .badExpirationDate,
        "BadMessageId": .badMessageId, "BadPriority": .badPriority, "BadTopic": .badTopic,
        "DeviceTokenNotForTopic": .deviceTokenNotForTopic, "DuplicateHeaders": .duplicateHeaders, "IdleTimeout": .idleTimeout,
        "InvalidPushType": .invalidPushType, "MissingDeviceToken": .missingDeviceToken, "MissingTopic": .missingTopic,
        "PayloadEmpty": .payloadEmpty, "TopicDisallowed": .topicDisallowed, "BadCertificate": .badCertificate,
        "BadCertificateEnvironment": .badCertificateEnvironment, "ExpiredProviderToken": .expiredProviderToken,
        "Forbidden": .forbidden, "InvalidProviderToken": .invalidProviderToken, "MissingProviderToken": .missingProviderToken,
        "UnrelatedKeyIdInToken": .unrelatedKeyIdInToken, "BadEnvironmentKeyIdInToken": .badEnvironmentKeyIdInToken,
        "BadPath": .badPath, "MethodNotAllowed": .methodNotAllowed, "ExpiredToken": .expiredToken,
        "Unregistered": .unregistered, "PayloadTooLarge": .payloadTooLarge,
        "TooManyProviderTokenUpdates": .tooManyProviderTokenUpdates, "TooManyRequests": .tooManyRequests,
        "InternalServerError": .internalServerError, "ServiceUnavailable": .serviceUnavailable, "Shutdown": .shutdown,
    ]

    public init(_ name: String) {
        self = Self.byName[name] ?? .unknown(name)
    }

    public var name: String {
        if case .unknown(let name) = self { return name }
        return Self.byName.first { $0.value == self }!.key
    }

    /// The one place a reason becomes an outcome. `timestamp` is a 410's `timestamp` (ms).
    public func outcome(status: Int, timestamp: Date?, production: Bool) -> PushOutcome {
        switch self {
        case .unregistered, .expiredToken:
            return .tokenInvalid(since: timestamp, hint: nil)
        case .badDeviceToken:
            return .tokenInvalid(
                since: nil,
                hint: production
                    ? "the token may be a sandbox (development) token sent to production"
                    : "the token may be a production token sent to the sandbox"
            )
        case .badCertificate, .badCertificateEnvironment, .forbidden, .invalidProviderToken, .missingProviderToken,
            .unrelatedKeyIdInToken, .badEnvironmentKeyIdInToken, .topicDisallowed, .badTopic:
            return .credentialBroken
        case .expiredProviderToken, .tooManyProviderTokenUpdates, .idleTimeout:
            return .retryLater(after: nil)
        case .tooManyRequests:
            return .retryLater(after: .seconds(60))
        case .internalServerError, .serviceUnavailable, .shutdown:
            return .retryLater(after: nil)
        case .deviceTokenNotForTopic:
            return .tokenInvalid(since: nil, hint: "the token belongs to another app (bundle id) than this credential's topic")
        case .unknown:
            return status >= 500 ? .retryLater(after: nil) : .failed
        default:
            return .failed
        }
    }
}
