import Foundation
import HeraldModels

/// Checks cards against CometChat Campaigns' Card Schema — the rules of `card-schema.json`, written once
/// here as a table — and that element ids are unique in a card. Every problem is reported with its
/// JSON pointer. In template mode, text holding `{{variables}}` passes the format checks (a URL
/// may be a variable until it is filled), but not the structural ones.
public enum CardValidator {
    public static func problems(_ card: JSONValue, at root: String = "", template: Bool = false) -> [CardProblem] {
        var check = Check(template: template)
        check.card(card, root)
        return check.problems
    }

    /// The most problems one error lists.
    static let maxListed = 50

    /// Throws `invalid_card` (422) listing every problem by pointer.
    public static func validate(_ card: JSONValue, at root: String, template: Bool = false) throws {
        let found = problems(card, at: root, template: template)
        guard !found.isEmpty else { return }
        // Every problem is in the message and in `details` (two problems at one pointer share its entry).
        let listed = found.prefix(Self.maxListed)
        var details = ["field": root.isEmpty ? "card" : String(root.dropFirst())]
        for problem in listed {
            let pointer = problem.pointer.isEmpty ? "/" : problem.pointer
            details[pointer] = details[pointer].map { $0 + "; " + problem.message } ?? problem.message
        }
        let more = found.count > listed.count ? "; and \(found.count - listed.count) more" : ""
        throw HeraldError(
            .invalidField,
            code: "invalid_card",
            "the card has \(found.count) problem\(found.count == 1 ? "" : "s"): "
                + listed.map { "\($0.pointer.isEmpty ? "/" : $0.pointer) \($0.message)" }.joined(separator: "; ") + more,
            details: details
        )
    }

    /// What a field may hold.
    indirect enum Rule {
        case text(min: Int = 1, max: Int)
        case id
        case url
        case color
        case pair
        case number(min: Double, max: Double, exclusiveMin: Bool = false)
        case integer(min: Int, max: Int)
        case flag
        case oneOf([String])
        case elements(min: Int, max: Int)
        case action
        case tabs
        case headers
        case anything
        case style
    }

    struct Shape {
        var required: [String]
        var fields: [String: Rule]
        /// Exactly one of these must be there.
        var exactlyOne: [String] = []
    }

    static let elementTypes: [String: Shape] = [
        "text": Shape(
            required: ["id", "content"],
            fields: [
                "id": .id, "content": .text(max: 4_000),
                "variant": .oneOf(["heading1", "heading2", "heading3", "heading4", "body", "bodyBold", "caption", "caption2"]),
                "color": .pair, "align": .oneOf(["left", "center", "right"]), "maxLines": .integer(min: 1, max: 100),
            ]
        ),
        "image": Shape(
            required: ["id", "url"],
            fields: [
                "id": .id, "url": .url, "alt": .text(min: 0, max: 500),
                "height": .number(min: 0, max: 2_000, exclusiveMin: true), "width": .number(min: 0, max: 2_000, exclusiveMin: true),
                "aspectRatio": .number(min: 0, max: 10, exclusiveMin: true), "fit": .oneOf(["cover", "contain"]),
                "cornerRadius": .number(min: 0, max: 200), "action": .action,
            ]
        ),
        "button": Shape(
            required: ["id", "label", "action"],
            fields: [
                "id": .id, "label": .text(max: 200), "action": .action,
                "variant": .oneOf(["filled", "outlined", "text"]), "background": .pair, "textColor": .pair, "fullWidth": .flag,
            ]
        ),
        "iconButton": Shape(
            required: ["id", "icon", "action"],
            fields: [
                "id": .id, "icon": .text(max: 2_048), "label": .text(min: 0, max: 200),
                "action": .action, "size": .number(min: 0, max: 200, exclusiveMin: true), "color": .pair,
            ]
        ),
        "link": Shape(required: ["id", "text", "action"], fields: ["id": .id, "text": .text(max: 500), "action": .action, "color": .pair]),
        "row": Shape(
            required: ["id", "items"],
            fields: [
                "id": .id, "items": .elements(min: 1, max: 50), "gap": .number(min: 0, max: 100),
                "align": .oneOf(["start", "center", "end", "spaceBetween"]),
            ]
        ),
        "column": Shape(
            required: ["id", "items"],
            fields: [
                "id": .id, "items": .elements(min: 1, max: 50), "gap": .number(min: 0, max: 100),
                "align": .oneOf(["start", "center", "end"]),
            ]
        ),
        "accordion": Shape(
            required: ["id", "title", "items"],
            fields: [
                "id": .id, "title": .text(max: 500), "items": .elements(min: 1, max: 50),
                "expanded": .flag,
            ]
        ),
        "tabs": Shape(required: ["id", "tabs"], fields: ["id": .id, "tabs": .tabs, "selected": .integer(min: 0, max: 9)]),
        "divider": Shape(required: [], fields: ["id": .id, "color": .pair, "thickness": .number(min: 0, max: 20, exclusiveMin: true)]),
        "spacer": Shape(required: ["height"], fields: ["id": .id, "height": .number(min: 0, max: 500)]),
    ]

    static let actionTypes: [String: Shape] = [
        "openUrl": Shape(required: ["url"], fields: ["url": .url, "openIn": .oneOf(["browser", "webview"])]),
        "chatWithUser": Shape(required: ["uid"], fields: ["uid": .id]),
        "chatWithGroup": Shape(required: ["guid"], fields: ["guid": .id]),
        "sendMessage": Shape(
            required: ["text"],
            fields: ["text": .text(max: 4_000), "receiverUid": .id, "receiverGuid": .id],
            exactlyOne: ["receiverUid", "receiverGuid"]
        ),
        "copyToClipboard": Shape(required: ["value"], fields: ["value": .text(max: 4_000)]),
        "downloadFile": Shape(required: ["url"], fields: ["url": .url, "filename": .text(max: 255)]),
        "initiateCall": Shape(
            required: ["callType"],
            fields: ["callType": .oneOf(["audio", "video"]), "uid": .id, "guid": .id],
            exactlyOne: ["uid", "guid"]
        ),
        "apiCall": Shape(
            required: ["url"],
            fields: ["url": .url, "method": .oneOf(["GET", "POST", "PUT", "PATCH", "DELETE"]), "headers": .headers, "body": .anything]
        ),
        "customCallback": Shape(required: ["callbackId"], fields: ["callbackId": .id, "payload": .anything]),
    ]

    static let styleShape = Shape(
        required: [],
        fields: [
            "background": .pair, "borderColor": .pair, "borderRadius": .number(min: 0, max: 100),
            "borderWidth": .number(min: 0, max: 20), "padding": .number(min: 0, max: 100),
        ]
    )
    static let cardShape = Shape(
        required: ["version", "body", "fallbackText"],
        fields: ["version": .oneOf(["1.0"]), "body": .elements(min: 1, max: 50), "style": .style, "fallbackText": .text(max: 2_000)]
    )

    /// The most elements a card may hold, nested ones included, and how deep they may nest.
    static let maxElements = 200
    static let maxDepth = 6

    struct Check {
        let template: Bool
        var problems: [CardProblem] = []
        var ids: [String: String] = [:]  // id → where first seen
        var elements = 0
        var depth = 0

        init(template: Bool) {
            self.template = template
        }

        mutating func report(_ pointer: String, _ message: String) {
            problems.append(CardProblem(pointer: pointer, message: message))
        }

        mutating func card(_ value: JSONValue, _ pointer: String) {
            guard case .object(let card) = value else { return report(pointer, "must be a card object") }
            object(card, CardValidator.cardShape, pointer)
        }

        mutating func object(_ object: JSONObject, _ shape: Shape, _ pointer: String) {
            for key in shape.required where object[key] == nil { report(pointer + "/" + key, "is required") }
            for (key, value) in object.sorted(by: { $0.key < $1.key }) {
                guard let rule = shape.fields[key] else {
                    if key != "type" { report(pointer + "/" + escape(key), "is not a field here") }
                    continue
                }
                field(value, rule, pointer + "/" + escape(key))
            }
            if !shape.exactlyOne.isEmpty, shape.exactlyOne.filter({ object[$0] != nil }).count != 1 {
                report(pointer, "needs exactly one of \(shape.exactlyOne.joined(separator: ", "))")
            }
        }

        mutating func field(_ value: JSONValue, _ rule: Rule, _ pointer: String) {
            switch rule {
            case .text(let min, let max):
                guard case .string(let text) = value else { return report(pointer, "must be a string") }
                if text.count < min || text.count > max {
                    report(pointer, min > 0 ? "must be 1 to \(max) characters" : "must be at most \(max) characters")
                }
            case .id:
                guard case .string(let text) = value else { return report(pointer, "must be a string") }
                if isVariable(text) { return }
                if text.isEmpty || text.count > 100
                    || !text.unicodeScalars.allSatisfy({
                        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_.-".unicodeScalars.contains($0))
                    })
                {
                    report(pointer, "must be 1 to 100 letters, digits, _ . or -")
                }
            case .url:
                guard case .string(let text) = value else { return report(pointer, "must be a string") }
                if isVariable(text) { return }
                if text.count > 2_048 || !(text.hasPrefix("https://") || text.hasPrefix("http://")) || URL(string: text)?.host == nil {
                    report(pointer, "must be an http(s) URL")
                }
            case .color:
                guard case .string(let text) = value else { return report(pointer, "must be a string") }
                if isVariable(text) { return }
                let hex = text.dropFirst()
                if !text.hasPrefix("#") || ![6, 8].contains(hex.count) || !hex.allSatisfy(\.isHexDigit) {
                    report(pointer, "must be a colour, #RRGGBB or #RRGGBBAA")
                }
            case .pair:
                guard case .object(let pair) = value else { return report(pointer, "must be {\"light\": colour, \"dark\": colour}") }
                object(pair, Shape(required: ["light", "dark"], fields: ["light": .color, "dark": .color]), pointer)
            case .number(let min, let max, let exclusiveMin):
                guard case .number(let number) = value else { return report(pointer, "must be a number") }
                if number < min || (exclusiveMin && number == min) || number > max {
                    report(
                        pointer,
                        exclusiveMin
                            ? "must be more than \(format(min)) and at most \(format(max))" : "must be between \(format(min)) and \(format(max))"
                    )
                }
            case .integer(let min, let max):
                guard case .number(let number) = value, number.rounded() == number else { return report(pointer, "must be a whole number") }
                if number < Double(min) || number > Double(max) { report(pointer, "must be between \(min) and \(max)") }
            case .flag:
                guard case .bool = value else { return report(pointer, "must be true or false") }
            case .oneOf(let allowed):
                guard case .string(let text) = value, allowed.contains(text) else {
                    return report(pointer, "must be one of \(allowed.joined(separator: ", "))")
                }
            case .elements(let min, let max):
                guard case .array(let items) = value else { return report(pointer, "must be an array of elements") }
                if items.count < min || items.count > max { report(pointer, "must hold \(min) to \(max) elements") }
                depth += 1
                if depth > CardValidator.maxDepth { report(pointer, "nests deeper than \(CardValidator.maxDepth) levels") }
                for (index, item) in items.enumerated() { element(item, pointer + "/\(index)") }
                depth -= 1
            case .action:
                guard case .object(let action) = value else { return report(pointer, "must be an action object") }
                guard case .string(let type)? = action["type"], let shape = CardValidator.actionTypes[type] else {
                    return report(pointer + "/type", "must be one of \(CardValidator.actionTypes.keys.sorted().joined(separator: ", "))")
                }
                object(action, shape, pointer)
            case .tabs:
                guard case .array(let tabs) = value, (1...10).contains(tabs.count) else { return report(pointer, "must hold 1 to 10 tabs") }
                for (index, tab) in tabs.enumerated() {
                    guard case .object(let tab) = tab else {
                        report(pointer + "/\(index)", "must be a tab object")
                        continue
                    }
                    object(
                        tab,
                        Shape(required: ["title", "items"], fields: ["id": .id, "title": .text(max: 200), "items": .elements(min: 1, max: 50)]),
                        pointer + "/\(index)"
                    )
                    if case .string(let id)? = tab["id"] { remember(id, pointer + "/\(index)/id") }
                }
            case .headers:
                guard case .object(let headers) = value, headers.count <= 20 else {
                    return report(pointer, "must be an object of at most 20 string headers")
                }
                for (name, header) in headers {
                    guard case .string = header else {
                        report(pointer + "/" + escape(name), "must be a string")
                        continue
                    }
                }
            case .anything:
                break
            case .style:
                guard case .object(let style) = value else { return report(pointer, "must be a style object") }
                object(style, CardValidator.styleShape, pointer)
            }
        }

        mutating func element(_ value: JSONValue, _ pointer: String) {
            elements += 1
            if elements == CardValidator.maxElements + 1 { report(pointer, "the card holds more than \(CardValidator.maxElements) elements") }
            guard case .object(let element) = value else { return report(pointer, "must be an element object") }
            guard case .string(let type)? = element["type"], let shape = CardValidator.elementTypes[type] else {
                return report(pointer + "/type", "must be one of \(CardValidator.elementTypes.keys.sorted().joined(separator: ", "))")
            }
            object(element, shape, pointer)
            if case .string(let id)? = element["id"] { remember(id, pointer + "/id") }
        }

        mutating func remember(_ id: String, _ pointer: String) {
            if let first = ids[id] {
                report(pointer, "'\(id)' is already the id of \(first.dropLast(3)); ids are unique in a card")
            } else {
                ids[id] = pointer
            }
        }

        func isVariable(_ text: String) -> Bool { template && TemplateRenderer.hasTag(text) }

        func format(_ number: Double) -> String { number.rounded() == number ? String(Int(number)) : String(number) }

        /// A key as a JSON pointer's token (RFC 6901); most keys need nothing.
        func escape(_ key: String) -> String {
            guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
            return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }
    }
}
