/// What the hub keeps of every subscription, whatever its class: whose it is, where it started
/// in the change log, and how far in it its changes have been given to it.
protocol LiveListener: AnyObject {
    var client: LiveClient { get }
    var requestId: Double { get }
    var start: Int64 { get }
    var deliveredThrough: Int64 { get set }
}

extension LiveSubscription: LiveListener {}
extension ActivitySubscription: LiveListener {}
