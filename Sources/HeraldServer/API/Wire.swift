import Foundation
import HeraldAPI
import HeraldCore
import HeraldModels
import OpenAPIRuntime

/// From Core's types to the generated response types.
enum Wire {
    static func user(_ user: User) throws -> Components.Schemas.User {
        .init(
            uid: user.uid,
            name: user.name,
            avatar: user.avatar,
            metadata: try user.metadata.map { try JSONBridge.decode($0) },
            tags: user.tags,
            locale: user.locale,
            timeZone: user.timeZone,
            createdAt: user.createdAt,
            updatedAt: user.updatedAt
        )
    }

    static func group(_ group: Group) throws -> Components.Schemas.Group {
        .init(
            guid: group.guid,
            name: group.name,
            icon: group.icon,
            _type: .init(rawValue: group.type.rawValue) ?? ._public,
            hasPassword: group.passwordHash != nil,
            metadata: try group.metadata.map { try JSONBridge.decode($0) },
            membersCount: group.membersCount,
            owner: group.owner,
            createdAt: group.createdAt,
            updatedAt: group.updatedAt
        )
    }

    static func member(_ member: GroupMember) -> Components.Schemas.Member {
        .init(uid: member.uid, scope: .init(rawValue: member.scope.rawValue) ?? .participant, joinedAt: member.joinedAt)
    }

    static func session(_ session: Session) -> Components.Schemas.Session {
        .init(sessionId: session.id, uid: session.uid, deviceName: session.deviceName, createdAt: session.createdAt, expiresAt: session.expiresAt)
    }

    static func pushToken(_ token: PushToken) -> Components.Schemas.PushToken {
        .init(
            pushToken: token.token,
            platform: token.platform.rawValue,
            tokenKind: .init(rawValue: token.kind.rawValue) ?? .fcm,
            providerId: token.providerId,
            uid: token.uid,
            sessionId: token.sessionId,
            createdAt: token.createdAt,
            lastSeenAt: token.lastSeenAt,
            encrypted: token.encryption != nil
        )
    }

    static func settings(_ settings: PushSettings) throws -> Components.Schemas.PushSettings {
        .init(
            badge: settings.badge,
            includeMessageObject: settings.includeMessageObject,
            payloadFormat: .init(rawValue: settings.payloadFormat.rawValue) ?? .cometchat,
            customJSON: try settings.customJSON.map { try JSONBridge.decode($0) },
            hideMessageText: settings.hideMessageText,
            localizationKeys: settings.localizationKeys,
            includeConversationUnread: settings.includeConversationUnread,
            chatTTLSeconds: settings.chatTTLSeconds,
            callTTLSeconds: settings.callTTLSeconds,
            defaultPreferences: preferences(settings.defaultPreferences),
            retentionDays: settings.retentionDays,
            enabled: settings.enabled,
            maxTokensPerUser: settings.maxTokensPerUser,
            multiDevicePolicy: .init(rawValue: settings.multiDevicePolicy.rawValue) ?? .allOffline,
            onlineGraceSeconds: settings.onlineGraceSeconds,
            clearOnRead: settings.clearOnRead,
            clearCoalesceSeconds: settings.clearCoalesceSeconds,
            burstWindowSeconds: settings.burstWindowSeconds,
            contentMode: contentMode(settings.contentMode),
            androidChannels: .init(
                messages: settings.androidChannels.messages,
                mentions: settings.androidChannels.mentions,
                calls: settings.androidChannels.calls
            )
        )
    }

    static func contentMode(_ mode: ContentMode) -> Components.Schemas.ContentMode {
        .init(rawValue: mode.rawValue) ?? .full
    }

    static func preferences(_ value: NotificationPreferences) -> Components.Schemas.PreferencesValue {
        .init(
            events: value.events.map { .init(additionalProperties: eventSwitches($0)) },
            groupMentionsOnly: value.groupMentionsOnly,
            doNotDisturb: value.doNotDisturb.map(doNotDisturb),
            keywords: value.keywords,
            contentMode: value.contentMode.map(contentMode)
        )
    }

    static func preferences(_ value: Components.Schemas.PreferencesValue) throws -> NotificationPreferences {
        NotificationPreferences(
            events: try NotificationPreferences.events(value.events?.additionalProperties),
            groupMentionsOnly: value.groupMentionsOnly,
            doNotDisturb: value.doNotDisturb.map(doNotDisturb),
            keywords: value.keywords,
            contentMode: value.contentMode.flatMap { ContentMode(rawValue: $0.rawValue) }
        )
    }

    /// Switches per event type as the API names them.
    static func eventSwitches(_ events: [EventKind: Bool]) -> [String: Bool] {
        Dictionary(uniqueKeysWithValues: events.map { ($0.key.rawValue, $0.value) })
    }

    static func doNotDisturb(_ value: NotificationPreferences.DoNotDisturb) -> Components.Schemas.DoNotDisturb {
        .init(enabled: value.enabled, start: value.start, end: value.end, until: value.until, allowCalls: value.allowCalls)
    }

    static func doNotDisturb(_ value: Components.Schemas.DoNotDisturb) -> NotificationPreferences.DoNotDisturb {
        .init(enabled: value.enabled, start: value.start, end: value.end, until: value.until, allowCalls: value.allowCalls)
    }

    static func effective(_ value: EffectivePreferences) -> Components.Schemas.Preferences {
        .init(
            events: .init(additionalProperties: eventSwitches(value.events)),
            groupMentionsOnly: value.groupMentionsOnly,
            doNotDisturb: value.doNotDisturb.map(doNotDisturb),
            mutes: value.mutes.map(mute),
            keywords: value.keywords,
            contentMode: value.contentMode.map(contentMode)
        )
    }

    static func mute(_ value: ConversationMute) -> Components.Schemas.Mute {
        .init(conversationId: value.conversationId, until: value.until)
    }

    static func template(_ template: PushTemplate, builtIn: Bool) -> Components.Schemas.Template {
        .init(
            eventType: template.eventType.rawValue,
            receiverType: template.receiverType.rawValue,
            locale: template.locale,
            title: template.title,
            body: template.body,
            titleLocKey: template.titleLocKey,
            titleLocArgs: template.titleLocArgs,
            bodyLocKey: template.bodyLocKey,
            bodyLocArgs: template.bodyLocArgs,
            builtIn: builtIn,
            updatedAt: template.updatedAt
        )
    }

    static func delivery(_ d: Delivery) -> Components.Schemas.DeliveryRecord {
        .init(
            id: d.id,
            eventId: d.subject.id,
            uid: d.uid,
            channel: Components.Schemas.DeliveryRecord.ChannelPayload(rawValue: d.channel.rawValue) ?? .push,
            target: targetText(d.target),
            sessionId: d.sessionId,
            providerId: d.providerId,
            platform: d.platform?.rawValue,
            route: d.route.flatMap { .init(rawValue: $0.rawValue) },
            status: .init(rawValue: d.status.rawValue) ?? .pending,
            reason: d.reason,
            attempts: d.attempts,
            nextAttemptAt: d.nextAttemptAt,
            expiresAt: d.expiresAt,
            providerStatus: d.providerStatus,
            providerMessageId: d.providerMessageId,
            badge: d.badge,
            receivedAt: d.receivedAt,
            openedAt: d.openedAt,
            createdAt: d.createdAt,
            updatedAt: d.updatedAt
        )
    }

    /// A delivery's target as the API shows it: the token, `webhook:<providerId>`, `inapp` or `-`.
    static func targetText(_ target: DeliveryTarget) -> String {
        switch target {
        case .token(let token): token
        case .webhook(let providerId): "webhook:" + providerId
        case .inApp: "inapp"
        case .none: "-"
        }
    }

    static func event(_ stored: StoredEvent) throws -> Components.Schemas.EventSummary {
        .init(
            eventId: stored.event.id,
            clientId: stored.event.clientId,
            _type: stored.event.kind.rawValue,
            status: .init(rawValue: stored.status.rawValue) ?? .pending,
            receivedAt: stored.event.receivedAt,
            finishedAt: stored.finishedAt,
            recipients: stored.recipients,
            reason: stored.reason.flatMap { .init(rawValue: $0.rawValue) },
            event: try JSONBridge.decode(stored.event.publicJSON.objectValue ?? [:])
        )
    }

    /// Only what ``ProviderConfig`` holds: settings and safe facts, never a secret.
    static func provider(_ credential: ProviderCredential) -> Components.Schemas.Provider {
        let config = credential.config
        var provider = Components.Schemas.Provider(
            providerId: credential.providerId,
            kind: .init(rawValue: config.kind.rawValue) ?? .custom,
            enabled: config.enabled,
            broken: config.broken.map { .init(reason: $0.reason, since: $0.since ?? credential.updatedAt) },
            createdAt: credential.createdAt,
            updatedAt: credential.updatedAt
        )
        switch config.settings {
        case .fcm(let fcm):
            provider.projectId = fcm.projectId
            provider.clientEmail = fcm.clientEmail
            provider.privateKeyId = fcm.privateKeyId
            provider.includeNotificationKey = fcm.includeNotificationKey
        case .apns(let apns):
            provider.auth = .init(rawValue: apns.auth.kind.rawValue)
            provider.bundleId = apns.bundleId
            provider.production = apns.production
            provider.contentAvailable = apns.contentAvailable
            provider.mutableContent = apns.mutableContent
            switch apns.auth {
            case .token(let keyId, let teamId):
                provider.keyId = keyId
                provider.teamId = teamId
            case .certificate(let subject, let expiresAt):
                provider.certificate = .init(subject: subject, expiresAt: expiresAt)
            }
        case .webhook(let webhook):
            provider.url = webhook.url
            provider.basicAuth = webhook.basicAuthUsername.map { .init(username: $0) }
        case .hms(let hms):
            provider.hmsAppId = hms.appId
            provider.includeNotificationKey = hms.includeNotificationKey
        case .webPush(let webPush):
            provider.subject = webPush.subject
            provider.vapidPublicKey = webPush.publicKey
        }
        return provider
    }
}
