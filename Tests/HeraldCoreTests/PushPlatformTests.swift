import HeraldCore
import HeraldModels
import Testing

@Suite("Push platforms (CometChat)")
struct PushPlatformTests {
    /// The 17 values of CometChat's "Tokens management", as lower-case wire values.
    static let seedValues = [
        "fcm_android", "fcm_flutter_android", "fcm_flutter_ios", "apns_flutter_device", "apns_flutter_voip", "fcm_ios",
        "apns_ios_device", "apns_ios_voip", "fcm_web", "fcm_react_native_android", "fcm_react_native_ios",
        "apns_react_native_device", "apns_react_native_voip", "fcm_ionic_cordova_android", "fcm_ionic_cordova_ios",
        "apns_ionic_cordova_device", "apns_ionic_cordova_voip",
    ]

    /// CometChat's platform values, and those Herald adds: Huawei Push Kit, Web Push, UnifiedPush.
    @Test func wireValuesAreExactlyTheSeedsAndHMSAndTheOpenProtocols() {
        #expect(PushPlatform.allCases.map(\.rawValue).sorted() == (Self.seedValues + ["hms_android", "web_push", "unifiedpush"]).sorted())
        #expect(PushPlatform(parsing: "HMS_ANDROID") == .hmsAndroid)
        #expect(PushPlatform.hmsAndroid.tokenKind == .hms && PushTokenKind.hms.providerKind == .hms)
        #expect(PushPlatform.webPush.tokenKind == .webPush && PushPlatform.unifiedPush.tokenKind == .unifiedPush)
        #expect(PushTokenKind.webPush.providerKind == .webpush && PushTokenKind.unifiedPush.providerKind == .webpush)
        // Browsers show every push, so they get no silent ones; UnifiedPush apps may be woken silently.
        #expect(PushPlatform.allCases.filter(\.isBrowser) == [.fcmWeb, .webPush])
    }

    @Test(arguments: seedValues)
    func sdkConstantNamesParse(_ value: String) throws {
        let platform = try #require(PushPlatform(parsing: value))
        // The SDK constants as CometChat spells them: FCM_iOS, APNS_IOS_VOIP, PushPlatforms.FCM_WEB.
        let constant = value.uppercased().replacingOccurrences(of: "_IOS", with: "_iOS")
        #expect(PushPlatform(parsing: constant) == platform)
        #expect(PushPlatform(parsing: value.uppercased()) == platform)
        #expect(PushPlatform(parsing: "PushPlatforms." + constant) == platform)
    }

    @Test func tokenKinds() {
        #expect(PushPlatform.fcmIOS.tokenKind == .fcm)
        #expect(PushPlatform.apnsIOSDevice.tokenKind == .apnsDevice)
        #expect(PushPlatform.apnsFlutterVoIP.tokenKind == .apnsVoIP)
        #expect(PushPlatform.apnsIonicCordovaVoIP.tokenKind.providerKind == .apns)
        #expect(PushPlatform.fcmWeb.tokenKind.providerKind == .fcm)
        #expect(PushPlatform(parsing: "apns_ios") == nil)
        #expect(PushPlatform(parsing: "") == nil)
    }

    /// Every platform's kind follows its wire value: `fcm_…` FCM, `hms_…` Huawei, `apns_…_voip`
    /// VoIP, other `apns_…` device tokens (a platform added later must be placed so too).
    @Test(arguments: PushPlatform.allCases)
    func everyPlatformsKindFollowsItsWireValue(_ platform: PushPlatform) {
        let value = platform.rawValue
        let expected: PushTokenKind =
            switch platform {
            case .webPush: .webPush
            case .unifiedPush: .unifiedPush
            default:
                value.hasPrefix("fcm_") ? .fcm : value.hasPrefix("hms_") ? .hms : value.hasSuffix("_voip") ? .apnsVoIP : .apnsDevice
            }
        #expect(platform.tokenKind == expected)
        #expect(value.hasPrefix("apns_") == [.apnsDevice, .apnsVoIP].contains(platform.tokenKind))
    }

    @Test func tokenFormats() throws {
        let hex = String(repeating: "ab", count: 32)
        #expect(try PushTokenFormat.normalise(hex.uppercased(), kind: .apnsDevice) == hex)
        #expect(throws: HeraldError.self) { try PushTokenFormat.normalise("xyz" + hex, kind: .apnsDevice) }
        #expect(throws: HeraldError.self) { try PushTokenFormat.normalise(String(hex.dropLast()), kind: .apnsVoIP) }
        #expect(throws: HeraldError.self) { try PushTokenFormat.normalise("short", kind: .fcm) }
        #expect(throws: HeraldError.self) { try PushTokenFormat.normalise("has a space in the middle of it ok", kind: .fcm) }
        #expect(try PushTokenFormat.normalise("dGVzdC10b2tlbjpBUEE5MWJIa2V5", kind: .fcm) == "dGVzdC10b2tlbjpBUEE5MWJIa2V5")
    }
}
