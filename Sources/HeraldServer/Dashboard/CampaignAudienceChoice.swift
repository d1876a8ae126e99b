import HeraldCore

/// Who a campaign from the dashboard's form goes to: the form's `audience` field, read once at
/// the form's edge; with the users, tags or groups typed beside it, it makes the campaign's
/// ``Audience``.
enum CampaignAudienceChoice: String, CaseIterable {
    case all, uids, tagsAny, tagsAll, groups

    var label: String {
        switch self {
        case .all: "Everyone"
        case .uids: "These users"
        case .tagsAny: "Users with any of these tags"
        case .tagsAll: "Users with all of these tags"
        case .groups: "Members of these groups"
        }
    }

    /// The audience for `list` (the users, tags or groups typed).
    func audience(_ list: [String]) throws -> Audience {
        guard self == .all || !list.isEmpty else {
            throw HeraldError.invalidField("audienceValues", "list the users, tags or groups, separated by commas")
        }
        return switch self {
        case .all: .all
        case .uids: .uids(list)
        case .tagsAny: .tags(list, all: false)
        case .tagsAll: .tags(list, all: true)
        case .groups: .groups(list)
        }
    }

    /// How the dashboard describes a campaign's audience.
    static func text(_ audience: Audience) -> String {
        switch audience {
        case .all: "everyone"
        case .uids(let uids): "users: " + uids.prefix(5).joined(separator: ", ") + (uids.count > 5 ? " and \(uids.count - 5) more" : "")
        case .tags(let tags, let all): (all ? "users with all of the tags: " : "users with any of the tags: ") + tags.joined(separator: ", ")
        case .groups(let guids): "members of: " + guids.joined(separator: ", ")
        }
    }
}
