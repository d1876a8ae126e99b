import HTTPTypes
import Hummingbird

/// The caller's credentials for the duration of one request. The OpenAPI handlers do not see
/// headers that the contract declares as security, so the middleware hands them over here.
enum RequestCredentials {
    @TaskLocal static var bearer: String?
    @TaskLocal static var appHeader: String?
}
