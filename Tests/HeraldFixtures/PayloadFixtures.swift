import Foundation
import HeraldModels

/// Golden push payloads written from CometChat's, Sendbird's and Kandy's documented payloads (`Payloads/*.json`, made by
/// `make-payload-fixtures.py`): each holds the event, the recipient and settings, and the exact
/// payload Herald must send. The server's golden tests build them; the SDK's tests parse them, so
/// the two cannot drift.
public enum PayloadFixtures {
    public struct Fixture: Sendable {
        public let name: String
        public let value: JSONObject

        public subscript(_ key: String) -> JSONValue? { value[key] }
    }

    public static func all() throws -> [Fixture] {
        guard let folder = Bundle.module.url(forResource: "Payloads", withExtension: nil) else { throw CocoaError(.fileNoSuchFile) }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        return try files.map { url in
            guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url)) else {
                throw CocoaError(.fileReadCorruptFile)
            }
            return Fixture(name: url.deletingPathExtension().lastPathComponent, value: object)
        }
    }
}
