import Foundation
import HeraldModels
import HeraldTestSupport
import Testing

/// `herald matrix import-sygnal-config`: a Sygnal configuration as operators write it, imported
/// into an app by the CLI, then served.
@Suite("Sygnal configuration import")
struct SygnalImportTests {
    @Test
    func aSygnalConfigurationBecomesProvidersAndAppIdsAndSaysWhatItLeft() async throws {
        let world = try await ProcessWorld.make(.sqlite, name: "Sygnal")
        defer { Task { await world.close() } }
        let folder = TestScratch.path("herald-sygnal")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("keys"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixtures.apnsSigningKeyPEM().write(to: folder.appendingPathComponent("keys/AuthKey_ABC123DEFG.p8"), atomically: true, encoding: .utf8)
        try JSONSerialization.data(withJSONObject: Fixtures.serviceAccount()).write(to: folder.appendingPathComponent("keys/service-account.json"))
        try Fixtures.apnsSigningKeyPEM().write(to: folder.appendingPathComponent("keys/vapid.pem"), atomically: true, encoding: .utf8)
        let yaml = """
            http:
              port: 5000
            apps:
              im.vector.app.ios.prod:
                type: apns
                keyfile: keys/AuthKey_ABC123DEFG.p8
                key_id: ABC123DEFG
                team_id: DEF123GHIJ
                topic: im.vector.app
                platform: production
                push_type: alert
                convert_device_token_to_hex: false
              im.vector.app.android:
                type: gcm
                api_version: v1
                project_id: acme-chat
                service_account_file: keys/service-account.json
                fcm_options:
                  android:
                    notification:
                      channel_id: matrix
              im.vector.app.web*:
                type: webpush
                vapid_private_key: keys/vapid.pem
                vapid_contact_email: ops@acme.example
                allowed_endpoints: ["*.push.services.mozilla.com", "fcm.googleapis.com"]
                ttl: 3600
              org.old.android:
                type: gcm
                api_key: AAAA
              org.cert.ios:
                type: apns
                certfile: keys/cert.pem
              org.custom:
                type: my_module.MyPushkin
            """
        let file = folder.appendingPathComponent("sygnal.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let apps = try HeraldProcess.run(["apps", "list", "--json"], environment: world.environment)
        let appId = try #require(JSONValue.parsing(Array(apps.utf8))[0]["appId"].string, "\(apps)")
        let (status, output) = try HeraldProcess.runCapturing(
            HeraldProcess.executable.path,
            ["matrix", "import-sygnal-config", file.path, "--app", appId],
            environment: ProcessInfo.processInfo.environment.merging(world.environment) { $1 }
        )
        #expect(status == 0, "\(output)")
        for line in [
            "app id bound: im.vector.app.ios.prod → sygnal-im-vector-app-ios-prod (apns)",
            "app id bound: im.vector.app.android → sygnal-im-vector-app-android (fcm)",
            "app id bound: im.vector.app.web* → sygnal-im-vector-app-web- (webpush)",
            "not carried over: im.vector.app.web*: ttl 3600",
            "not carried over: org.old.android: api_version: is legacy",
            "not carried over: org.cert.ios: certfile: is a PEM certificate",
            "not carried over: org.custom: type: 'my_module.MyPushkin' is not a pushkin Herald carries over",
        ] {
            #expect(output.contains(line), "missing '\(line)' in:\n\(output)")
        }

        // The server serves what was imported.
        let process = try await HeraldProcess.start(environment: world.environment)
        defer { process.kill(SIGTERM) }
        let bound = try await world.call(process, .GET, "/v1/matrix/app-ids")
        let byId = Dictionary(uniqueKeysWithValues: (bound.body["data"].array ?? []).map { ($0["matrixAppId"].string ?? "", $0) })
        #expect(byId.count == 3, "\(bound.text)")
        #expect(byId["im.vector.app.ios.prod"]?["convertDeviceTokenToHex"].bool == false)
        #expect(byId["im.vector.app.android"]?["fcmOptions"]["android"]["notification"]["channel_id"].string == "matrix")
        #expect(byId["im.vector.app.web*"]?["allowedEndpoints"].strings == ["*.push.services.mozilla.com", "fcm.googleapis.com"])
        let apns = try await world.call(process, .GET, "/v1/push/providers/sygnal-im-vector-app-ios-prod")
        #expect(apns.body["bundleId"].string == "im.vector.app" && apns.body["production"].bool == true && apns.body["keyId"].string == "ABC123DEFG")
        let web = try await world.call(process, .GET, "/v1/push/providers/sygnal-im-vector-app-web-")
        #expect(web.body["subject"].string == "mailto:ops@acme.example" && web.body["vapidPublicKey"].string?.count == 87, "\(web.text)")
    }
}
