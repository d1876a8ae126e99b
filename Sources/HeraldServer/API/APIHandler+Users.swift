import Foundation
import HeraldAPI
import HeraldCore

extension APIHandler {
    func putUser(_ input: Operations.PutUser.Input) async throws -> Operations.PutUser.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        if let uid = body.uid, uid != input.path.uid {
            throw HeraldError.invalidField("uid", "is '\(uid)' but the path names '\(input.path.uid)'; leave it out or make them equal")
        }
        let user = try await services.directory.putUser(
            appId: appId,
            uid: input.path.uid,
            UserInput(
                name: body.name,
                avatar: body.avatar,
                metadata: try body.metadata.map { try JSONBridge.object($0) },
                tags: body.tags,
                locale: body.locale,
                timeZone: body.timeZone
            )
        )
        return .ok(.init(body: .json(try Wire.user(user))))
    }

    func putUsers(_ input: Operations.PutUsers.Input) async throws -> Operations.PutUsers.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let stored = try await services.directory.putUsers(
            appId: appId,
            try body.users.enumerated().map { index, user in
                guard let uid = user.uid else { throw HeraldError.invalidField("users[\(index)].uid", "is required") }
                return (
                    uid,
                    UserInput(
                        name: user.name,
                        avatar: user.avatar,
                        metadata: try user.metadata.map { try JSONBridge.object($0) },
                        tags: user.tags,
                        locale: user.locale,
                        timeZone: user.timeZone
                    )
                )
            }
        )
        return .ok(.init(body: .json(.init(stored: stored))))
    }

    func getUser(_ input: Operations.GetUser.Input) async throws -> Operations.GetUser.Output {
        let appId = try await adminAppId()
        return .ok(.init(body: .json(try Wire.user(try await services.directory.user(appId: appId, uid: input.path.uid)))))
    }

    func deleteUser(_ input: Operations.DeleteUser.Input) async throws -> Operations.DeleteUser.Output {
        let appId = try await adminAppId()
        try await services.deleteUser(appId: appId, uid: input.path.uid)
        return .noContent(.init())
    }

    func listUserPushTokens(_ input: Operations.ListUserPushTokens.Input) async throws -> Operations.ListUserPushTokens.Output {
        let appId = try await adminAppId()
        _ = try await services.directory.user(appId: appId, uid: input.path.uid)
        let tokens = try await services.tokens.tokens(appId: appId, uid: input.path.uid)
        return .ok(.init(body: .json(.init(data: tokens.map(Wire.pushToken)))))
    }
}

extension APIHandler {
    func putGroup(_ input: Operations.PutGroup.Input) async throws -> Operations.PutGroup.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let group = try await services.directory.putGroup(
            appId: appId,
            guid: input.path.guid,
            GroupInput(
                name: body.name,
                icon: body.icon,
                type: body._type ?? "public",
                password: body.password,
                metadata: try body.metadata.map { try JSONBridge.object($0) },
                owner: body.owner
            )
        )
        return .ok(.init(body: .json(try Wire.group(group))))
    }

    func getGroup(_ input: Operations.GetGroup.Input) async throws -> Operations.GetGroup.Output {
        let appId = try await adminAppId()
        return .ok(.init(body: .json(try Wire.group(try await services.directory.group(appId: appId, guid: input.path.guid)))))
    }

    func deleteGroup(_ input: Operations.DeleteGroup.Input) async throws -> Operations.DeleteGroup.Output {
        let appId = try await adminAppId()
        try await services.directory.deleteGroup(appId: appId, guid: input.path.guid)
        return .noContent(.init())
    }

    func addGroupMembers(_ input: Operations.AddGroupMembers.Input) async throws -> Operations.AddGroupMembers.Output {
        let appId = try await adminAppId()
        guard case .json(let body) = input.body else { throw HeraldError(.badRequest, "a JSON body is required") }
        let result = try await services.directory.addMembers(appId: appId, guid: input.path.guid, uids: body.uids, scope: body.scope)
        return .ok(.init(body: .json(.init(added: result.added, updated: result.updated, notFound: result.notFound))))
    }

    func listGroupMembers(_ input: Operations.ListGroupMembers.Input) async throws -> Operations.ListGroupMembers.Output {
        let appId = try await adminAppId()
        let page = try await services.directory.members(appId: appId, guid: input.path.guid, cursor: input.query.cursor, limit: input.query.limit)
        return .ok(.init(body: .json(.init(data: page.items.map(Wire.member), nextCursor: page.nextCursor))))
    }

    func removeGroupMember(_ input: Operations.RemoveGroupMember.Input) async throws -> Operations.RemoveGroupMember.Output {
        let appId = try await adminAppId()
        try await services.directory.removeMember(appId: appId, guid: input.path.guid, uid: input.path.uid)
        return .noContent(.init())
    }
}
