import Crypto
import Foundation
import HeraldCore

/// Where the secret key comes from: `HERALD_SECRET_KEY` (base64 or hex of 32 bytes), or a key
/// file with mode 0600 created in the data folder on first start.
enum SecretKeyLoader {
    static let fileName = "secret.key"

    static func load(environmentValue: String?, dataFolder: String) throws -> SymmetricKey {
        if let value = environmentValue?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty {
            guard let bytes = decode(value), bytes.count == 32 else {
                throw HeraldError(.invalidField, "HERALD_SECRET_KEY must be 32 bytes, base64 or hex encoded (e.g. `openssl rand -base64 32`)")
            }
            return SymmetricKey(data: bytes)
        }
        let path = (dataFolder as NSString).appendingPathComponent(fileName)
        let files = FileManager.default
        if let contents = files.contents(atPath: path) {
            guard let text = String(data: contents, encoding: .utf8),
                let bytes = decode(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count == 32
            else {
                throw HeraldError(.invalidField, "the key file \(path) does not hold a 32-byte base64 key")
            }
            return SymmetricKey(data: bytes)
        }
        try files.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
        let key = SymmetricKey(size: .bits256)
        let text = key.withUnsafeBytes { Data($0).base64EncodedString() } + "\n"
        guard files.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw HeraldError(.internal, "could not create the key file \(path)")
        }
        return key
    }

    private static func decode(_ text: String) -> [UInt8]? {
        if text.count == 64, text.allSatisfy(\.isHexDigit) {
            var bytes: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return bytes
        }
        return Data(base64Encoded: text).map(Array.init)
    }
}
