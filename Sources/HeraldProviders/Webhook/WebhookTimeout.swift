import AsyncHTTPClient
import Foundation
import HeraldCore
import HeraldModels
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOSSL

struct WebhookTimeout: Error {}
