/// The variables a push template sees for one event (``ResolvedEvent/templateContext(hideText:)``),
/// looked up from the event's fields without making the dictionaries: every push of a 1:1
/// message renders its own text, and the dictionaries and their casts were most of that.
/// A test walks every path of the dictionary and finds the same here.
struct EventTemplateScope: TemplateScope {
    let event: ResolvedEvent
    let hideText: Bool

    var dictionary: [String: Any] { event.templateContext(hideText: hideText) }

    func lookUp(_ path: [String]) -> CompiledTemplate.Lookup {
        guard let root = path.first else { return .other }
        let rest = path.dropFirst()
        switch root {
        case "sender": return Self.user(event.sender, rest)
        case "conversationId": return Self.leaf(event.conversationId, rest)
        case "app": return Self.object(rest) { key in key == "id" ? event.app.id : key == "name" ? event.app.name : nil }
        case "receiver":
            if let user = event.receiverUser { return Self.user(user, rest) }
            if let group = event.group { return Self.group(group, rest) }
            return .missing
        case "group": return event.group.map { Self.group($0, rest) } ?? .missing
        default: return body(root, rest)
        }
    }

    /// The variables of the event's kind.
    private func body(_ root: String, _ rest: ArraySlice<String>) -> CompiledTemplate.Lookup {
        switch event.event.body {
        case .message(let m):
            guard root == "message" else { return .missing }
            return Self.object(rest) { key in
                switch key {
                case "id": m.idText
                case "text": hideText ? "New message" : (m.text ?? "")
                case "type": m.type
                case "category": m.category
                case "preview": event.messagePreview(hideText: hideText)
                case "action": m.action.rawValue
                default: nil
                }
            }
        case .call(let c):
            switch root {
            case "callType": return Self.leaf(c.callType.rawValue, rest)
            case "callAction": return Self.leaf(c.callAction.rawValue, rest)
            default: return .missing
            }
        case .reaction(let r):
            switch root {
            case "reaction": return Self.leaf(r.reaction, rest)
            case "message": return Self.object(rest) { key in key == "id" ? r.messageId : nil }
            default: return .missing
            }
        case .groupAction(let g):
            switch root {
            case "actor": return Self.user(event.sender, rest)
            case "target": return event.target.map { Self.user($0, rest) } ?? .missing
            case "action": return Self.leaf(g.action.rawValue, rest)
            case "actionText": return Self.leaf(event.actionText, rest)
            default: return .missing
            }
        case .read, .session, .matrix:
            return .missing
        }
    }

    /// A text at the end of the path; a path going on into a text is what Mustache renders its own way.
    private static func leaf(_ text: String, _ rest: ArraySlice<String>) -> CompiledTemplate.Lookup {
        rest.isEmpty ? .found(text) : .other
    }

    /// An object's member, the path's next part, as text; the object itself is rendered by Mustache.
    private static func object(_ rest: ArraySlice<String>, _ member: (String) -> String?) -> CompiledTemplate.Lookup {
        guard let key = rest.first else { return .other }
        guard let value = member(key) else { return .missing }
        return leaf(value, rest.dropFirst())
    }

    private static func user(_ user: UserInfo, _ rest: ArraySlice<String>) -> CompiledTemplate.Lookup {
        object(rest) { key in
            switch key {
            case "uid": user.uid
            case "name": user.name
            case "avatar": user.avatar ?? ""
            default: nil
            }
        }
    }

    private static func group(_ group: GroupInfo, _ rest: ArraySlice<String>) -> CompiledTemplate.Lookup {
        object(rest) { key in
            switch key {
            case "guid": group.guid
            case "name": group.name
            case "icon": group.icon ?? ""
            case "membersCount": String(group.membersCount)
            default: nil
            }
        }
    }
}
