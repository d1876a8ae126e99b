import Foundation

/// The platform a push token was issued for, as CometChat ("Tokens management") lists them.
///
/// The raw value is the lower-case wire value. The SDK constant names (`FCM_iOS`,
/// `APNS_IOS_VOIP`, `PushPlatforms.FCM_WEB`) are accepted case-insensitively by ``init(parsing:)``.
public enum PushPlatform: String, Codable, Sendable, CaseIterable, Hashable {
    case fcmAndroid = "fcm_android"
    case fcmFlutterAndroid = "fcm_flutter_android"
    case fcmFlutterIOS = "fcm_flutter_ios"
    case apnsFlutterDevice = "apns_flutter_device"
    case apnsFlutterVoIP = "apns_flutter_voip"
    case fcmIOS = "fcm_ios"
    case apnsIOSDevice = "apns_ios_device"
    case apnsIOSVoIP = "apns_ios_voip"
    case fcmWeb = "fcm_web"
    case fcmReactNativeAndroid = "fcm_react_native_android"
    case fcmReactNativeIOS = "fcm_react_native_ios"
    case apnsReactNativeDevice = "apns_react_native_device"
    case apnsReactNativeVoIP = "apns_react_native_voip"
    case fcmIonicCordovaAndroid = "fcm_ionic_cordova_android"
    case fcmIonicCordovaIOS = "fcm_ionic_cordova_ios"
    case apnsIonicCordovaDevice = "apns_ionic_cordova_device"
    case apnsIonicCordovaVoIP = "apns_ionic_cordova_voip"
    /// Huawei Push Kit (HMS Core) on Huawei Android devices without Google services.
    case hmsAndroid = "hms_android"
    /// A browser's Web Push subscription: the token is the subscription's endpoint URL.
    case webPush = "web_push"
    /// A UnifiedPush distributor's endpoint URL (de-Googled Android, Linux desktops).
    case unifiedPush = "unifiedpush"

    /// Parses a wire value or an SDK constant name, ignoring case and an optional
    /// `PushPlatforms.` prefix.
    public init?(parsing text: String) {
        var value = text.trimmingCharacters(in: .whitespaces).lowercased()
        if value.hasPrefix("pushplatforms.") { value.removeFirst("pushplatforms.".count) }
        self.init(rawValue: value)
    }

    /// The kind of token this platform registers: it decides which provider kind may deliver it.
    /// (A switch: it is asked for every device of every push, and reading the raw value's prefix
    /// compared strings each time.)
    public var tokenKind: PushTokenKind {
        switch self {
        case .fcmAndroid, .fcmFlutterAndroid, .fcmFlutterIOS, .fcmIOS, .fcmWeb, .fcmReactNativeAndroid, .fcmReactNativeIOS,
            .fcmIonicCordovaAndroid, .fcmIonicCordovaIOS:
            .fcm
        case .apnsFlutterDevice, .apnsIOSDevice, .apnsReactNativeDevice, .apnsIonicCordovaDevice: .apnsDevice
        case .apnsFlutterVoIP, .apnsIOSVoIP, .apnsReactNativeVoIP, .apnsIonicCordovaVoIP: .apnsVoIP
        case .hmsAndroid: .hms
        case .webPush: .webPush
        case .unifiedPush: .unifiedPush
        }
    }

    /// A browser shows every push it gets (Chrome and Safari revoke a subscription that pushes
    /// without showing), so silent pushes — clears, retracts, session ends — never go to it.
    public var isBrowser: Bool { self == .fcmWeb || self == .webPush }
}
