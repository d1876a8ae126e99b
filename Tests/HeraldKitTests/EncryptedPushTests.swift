import Foundation
import HeraldKit
import HeraldModels
import HeraldTestSupport
import Testing

/// The `encrypted` content mode end to end, on both back-ends: a device registers its key with
/// its token (as HeraldKit's decryptor makes it), Herald seals each notification to it, the APNs
/// and FCM stand-ins see only "New message" and ciphertext, and the decryptor opens the
/// notification the `full` mode would have sent.
@Suite("Encrypted pushes")
struct EncryptedPushTests {
    @Test(arguments: TestBackend.available)
    func aSealedNotificationOpensWithTheDevicesKeyAndNothingElse(_ backend: TestBackend) async throws {
        try await EngineWorld.with(backend) { world in
            try await world.herald.run { client in
                let settings = try await client.request(.patch, "/v1/push/settings", bearer: world.apiKey, json: ["contentMode": "encrypted"])
                #expect(settings.status == 200, "\(settings.text)")
                let phone = HeraldPushDecryptor.generate()
                let android = HeraldPushDecryptor.generate()
                let (session, keyless) = try await world.device(client, "bo", "apns_ios_device")
                let apnsToken = Fixtures.apnsToken()
                let fcmToken = Fixtures.fcmToken()
                for (token, platform, provider, key) in [
                    (apnsToken, "apns_ios_device", "apns-1", phone), (fcmToken, "fcm_android", "fcm-1", android),
                ] {
                    let registered = try await client.request(
                        .post,
                        "/v1/me/push-tokens",
                        bearer: session,
                        json: [
                            "pushToken": token, "platform": platform, "providerId": provider,
                            "encryption": ["p256dh": key.registration.p256dh, "auth": key.registration.auth],
                        ]
                    )
                    #expect(registered.status == 200 && registered.body["token"]["encrypted"].bool == true, "\(registered.text)")
                    #expect(!registered.text.contains(key.registration.auth), "the secret is never returned")
                }
                let bad = try await client.request(
                    .post,
                    "/v1/me/push-tokens",
                    bearer: session,
                    json: [
                        "pushToken": Fixtures.apnsToken(), "platform": "apns_ios_device", "providerId": "apns-1",
                        "encryption": ["p256dh": "AAAA", "auth": "x"],
                    ]
                )
                #expect(bad.status == 422 && bad.errorDetails?["field"] == "encryption.p256dh", "\(bad.text)")

                try await world.post(client, EngineWorld.message(from: "ana", to: "bo", text: "meet at the old mill", id: 7))
                try await world.drain()

                // APNs: "New message" by key, the ciphertext, no thread; the decryptor opens the full notification.
                let userInfo = try #require(world.apnsUserInfos(to: apnsToken).last)
                let aps = try #require(userInfo["aps"] as? [String: Any])
                #expect((aps["alert"] as? [String: Any])?["loc-key"] as? String == "newMessageNotification_body")
                #expect(aps["mutable-content"] as? Int == 1 && aps["thread-id"] == nil)
                #expect(Set(userInfo.keys) == ["aps", "herald"])
                let opened = try phone.open(userInfo: userInfo)
                #expect(opened["body"] as? String == "meet at the old mill" && opened["conversationId"] as? String == "ana_user_bo")
                #expect((opened["aps"] as? [String: Any])?["thread-id"] as? String == "ana_user_bo")
                #expect(throws: (any Error).self) { try android.open(userInfo: userInfo) }

                // A device that registered no key gets the ids only.
                let plain = try #require(world.apnsUserInfos(to: keyless).last)
                #expect((plain["herald"] as? [String: Any])?["messageId"] as? String == "7" && plain["body"] == nil)

                // FCM: data {enc}; the key of the Android device opens it, as data.
                let message = try #require(
                    world.fcm.messages.map { JSONValue.parsing($0) }.first { $0["token"].string == fcmToken }
                )
                let data = try #require(message["data"].stringObject)
                #expect(Set(data.keys) == ["enc"])
                let fields = try android.open(userInfo: data)
                #expect(fields["body"] as? String == "meet at the old mill" && fields["tag"] as? String == "7")

                // The text never reaches a provider.
                for body in world.apns.received.map(\.body) + world.fcm.messages {
                    #expect(!String(decoding: body, as: UTF8.self).contains("old mill"))
                }
            }
        }
    }
}
