import Foundation

/// The difference between two results of the same query, by `objectId`, in linear time
/// (hash lookups, not Anywall's nested `containsObject:` loops).
public enum ResultMerge {
    /// The events that turn `previous` into `current`: `added`, `revealed`, `hidden` and `changed`
    /// in the order of `current`, then `removed` in the order of `previous`. Unchanged posts give
    /// none; nor does a moved distance alone (a move of the reader is not a change of the post).
    ///
    /// A removed post carries its last known form as seen from `place` with `filterRadius` now:
    /// its text is withheld if it is beyond the radius, whatever it was before.
    public static func changes(from previous: [NearbyPost], to current: [NearbyPost], at time: Date,
                               place: GeoPoint, filterRadius: Distance) -> [ChangeEvent] {
        var before = [String: NearbyPost](minimumCapacity: previous.count)
        for post in previous { before[post.objectId] = post }
        var now = Set<String>(minimumCapacity: current.count)
        var events: [ChangeEvent] = []
        for post in current {
            now.insert(post.objectId)
            guard let old = before[post.objectId] else {
                events.append(ChangeEvent(kind: .added, time: time, post: post))
                continue
            }
            if old.visible != post.visible {
                events.append(ChangeEvent(kind: post.visible ? .revealed : .hidden, time: time, post: post))
            } else if old.score != post.score || old.text != post.text {
                events.append(ChangeEvent(kind: .changed, time: time, post: post))
            }
        }
        for post in previous where !now.contains(post.objectId) {
            events.append(ChangeEvent(kind: .removed, time: time, post: post.seen(from: place, filterRadius: filterRadius)))
        }
        return events
    }
}
