import Foundation
import HeraldCore

/// A submitted dashboard form: `application/x-www-form-urlencoded` or `multipart/form-data`
/// (uploads of service-account JSON, .p8 and .p12 files).
struct DashboardForm: Sendable {
    struct File: Sendable {
        var filename: String
        var data: Data
    }

    private(set) var fields: [String: [String]] = [:]
    private(set) var files: [String: File] = [:]

    init(fields: [String: [String]] = [:], files: [String: File] = [:]) {
        self.fields = fields
        self.files = files
    }

    /// The field's value, trimmed; nil when absent or blank.
    func text(_ name: String) -> String? {
        guard let value = fields[name]?.last?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// The field's value as typed (not trimmed), or "".
    func raw(_ name: String) -> String { fields[name]?.last ?? "" }

    func values(_ name: String) -> [String] { fields[name] ?? [] }

    /// A checkbox: present and not "off"/"false".
    func checked(_ name: String) -> Bool {
        guard let value = fields[name]?.last else { return false }
        return !["off", "false", "0", ""].contains(value.lowercased())
    }

    /// An uploaded file with content, if any.
    func file(_ name: String) -> File? {
        guard let file = files[name], !file.data.isEmpty else { return nil }
        return file
    }

    /// Every field's last value, for re-filling a form that was refused.
    var values: [String: String] { fields.compactMapValues(\.last) }

    // MARK: Parsing

    static func parse(contentType: String?, body: Data) throws -> DashboardForm {
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("multipart/form-data") {
            guard let boundary = parameter("boundary", in: contentType ?? "") else {
                throw HeraldError(.badRequest, "the form has no multipart boundary")
            }
            return try multipart(body, boundary: boundary)
        }
        return urlEncoded(String(decoding: body, as: UTF8.self))
    }

    static func urlEncoded(_ text: String) -> DashboardForm {
        var form = DashboardForm()
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decodeComponent(parts[0])
            let value = parts.count > 1 ? decodeComponent(parts[1]) : ""
            form.fields[name, default: []].append(value)
        }
        return form
    }

    private static func decodeComponent(_ text: Substring) -> String {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
    }

    private static func parameter(_ name: String, in header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var value = String(pair[1])
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    /// RFC 7578: parts separated by `--boundary`, each with headers, a blank line and content.
    static func multipart(_ body: Data, boundary: String) throws -> DashboardForm {
        var form = DashboardForm()
        let bytes = [UInt8](body)
        let delimiter = Array("--\(boundary)".utf8)
        var position = 0
        guard let first = find(delimiter, in: bytes, from: 0) else { throw HeraldError(.badRequest, "the multipart form is malformed") }
        position = first + delimiter.count
        while position < bytes.count {
            // After a delimiter: "--" ends the form, else CRLF and a part.
            if bytes[position...].starts(with: Array("--".utf8)) { break }
            if bytes[position...].starts(with: [13, 10]) { position += 2 }
            guard let headersEnd = find([13, 10, 13, 10], in: bytes, from: position) else {
                throw HeraldError(.badRequest, "the multipart form is malformed")
            }
            let headers = String(decoding: bytes[position..<headersEnd], as: UTF8.self)
            let contentStart = headersEnd + 4
            guard let next = find([13, 10] + delimiter, in: bytes, from: contentStart) else {
                throw HeraldError(.badRequest, "the multipart form is malformed")
            }
            let content = Data(bytes[contentStart..<next])
            var name: String?
            var filename: String?
            for line in headers.components(separatedBy: "\r\n") where line.lowercased().hasPrefix("content-disposition:") {
                name = parameter("name", in: line)
                filename = parameter("filename", in: line)
            }
            if let name {
                if let filename {
                    form.files[name] = File(filename: filename, data: content)
                } else {
                    form.fields[name, default: []].append(String(decoding: content, as: UTF8.self))
                }
            }
            position = next + 2 + delimiter.count
        }
        return form
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
