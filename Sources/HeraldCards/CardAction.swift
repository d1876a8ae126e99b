import Foundation
import HeraldModels

/// The nine card actions, with their parameters.
public enum CardAction: Codable, Sendable, Equatable {
    /// Opens a URL, in the browser or an in-app web view (`openIn`).
    case openUrl(url: String, openIn: String?)
    case chatWithUser(uid: String)
    case chatWithGroup(guid: String)
    /// Sends `text` to a user or a group.
    case sendMessage(text: String, receiverUid: String?, receiverGuid: String?)
    case copyToClipboard(value: String)
    case downloadFile(url: String, filename: String?)
    /// Starts an `audio` or `video` call with a user or a group.
    case initiateCall(callType: String, uid: String?, guid: String?)
    /// Calls the integrator's API.
    case apiCall(url: String, method: String?, headers: [String: String]?, body: JSONValue?)
    /// Hands `payload` to the app's own handler registered for `callbackId`.
    case customCallback(callbackId: String, payload: JSONValue?)

    public var type: String {
        switch self {
        case .openUrl: "openUrl"
        case .chatWithUser: "chatWithUser"
        case .chatWithGroup: "chatWithGroup"
        case .sendMessage: "sendMessage"
        case .copyToClipboard: "copyToClipboard"
        case .downloadFile: "downloadFile"
        case .initiateCall: "initiateCall"
        case .apiCall: "apiCall"
        case .customCallback: "customCallback"
        }
    }

    private enum Keys: String, CodingKey {
        case type, url, openIn, uid, guid, text, receiverUid, receiverGuid, value, filename, callType, method, headers, body, callbackId, payload
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "openUrl": self = .openUrl(url: try c.decode(String.self, forKey: .url), openIn: try c.decodeIfPresent(String.self, forKey: .openIn))
        case "chatWithUser": self = .chatWithUser(uid: try c.decode(String.self, forKey: .uid))
        case "chatWithGroup": self = .chatWithGroup(guid: try c.decode(String.self, forKey: .guid))
        case "sendMessage":
            self = .sendMessage(
                text: try c.decode(String.self, forKey: .text),
                receiverUid: try c.decodeIfPresent(String.self, forKey: .receiverUid),
                receiverGuid: try c.decodeIfPresent(String.self, forKey: .receiverGuid)
            )
        case "copyToClipboard": self = .copyToClipboard(value: try c.decode(String.self, forKey: .value))
        case "downloadFile":
            self = .downloadFile(url: try c.decode(String.self, forKey: .url), filename: try c.decodeIfPresent(String.self, forKey: .filename))
        case "initiateCall":
            self = .initiateCall(
                callType: try c.decode(String.self, forKey: .callType),
                uid: try c.decodeIfPresent(String.self, forKey: .uid),
                guid: try c.decodeIfPresent(String.self, forKey: .guid)
            )
        case "apiCall":
            self = .apiCall(
                url: try c.decode(String.self, forKey: .url),
                method: try c.decodeIfPresent(String.self, forKey: .method),
                headers: try c.decodeIfPresent([String: String].self, forKey: .headers),
                body: try c.decodeIfPresent(JSONValue.self, forKey: .body)
            )
        case "customCallback":
            self = .customCallback(
                callbackId: try c.decode(String.self, forKey: .callbackId),
                payload: try c.decodeIfPresent(JSONValue.self, forKey: .payload)
            )
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown action type \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(type, forKey: .type)
        switch self {
        case .openUrl(let url, let openIn):
            try c.encode(url, forKey: .url)
            try c.encodeIfPresent(openIn, forKey: .openIn)
        case .chatWithUser(let uid): try c.encode(uid, forKey: .uid)
        case .chatWithGroup(let guid): try c.encode(guid, forKey: .guid)
        case .sendMessage(let text, let uid, let guid):
            try c.encode(text, forKey: .text)
            try c.encodeIfPresent(uid, forKey: .receiverUid)
            try c.encodeIfPresent(guid, forKey: .receiverGuid)
        case .copyToClipboard(let value): try c.encode(value, forKey: .value)
        case .downloadFile(let url, let filename):
            try c.encode(url, forKey: .url)
            try c.encodeIfPresent(filename, forKey: .filename)
        case .initiateCall(let callType, let uid, let guid):
            try c.encode(callType, forKey: .callType)
            try c.encodeIfPresent(uid, forKey: .uid)
            try c.encodeIfPresent(guid, forKey: .guid)
        case .apiCall(let url, let method, let headers, let body):
            try c.encode(url, forKey: .url)
            try c.encodeIfPresent(method, forKey: .method)
            try c.encodeIfPresent(headers, forKey: .headers)
            try c.encodeIfPresent(body, forKey: .body)
        case .customCallback(let id, let payload):
            try c.encode(id, forKey: .callbackId)
            try c.encodeIfPresent(payload, forKey: .payload)
        }
    }
}
