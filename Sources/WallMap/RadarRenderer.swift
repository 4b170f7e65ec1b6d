import Foundation
import WallDomain

/// Draws the posts around you as a radar: you in the centre cell (with the fix's uncertainty as a
/// ring when it is known), the filter circle at its true radius, dashed range rings at round
/// distances, north, a scale bar, readable posts by key, hidden posts as dots with their distance,
/// and the posts beyond the view as arrows on its edge. A pure function of the scene and the size.
public struct RadarRenderer: Sendable {
    public let style: MapStyle
    public let size: MapSize

    /// How much of the view's half-span the filter circle's radius takes: the rest shows the posts just beyond it.
    static let filterCircleShare = 0.7
    /// Range rings drawn at most.
    static let mostRings = 4
    /// What a hidden post's line says instead of its text, as the table does.
    static let hiddenNote = "Can't view post! Get closer."

    /// A size below `MapSize.minimum` is drawn at the minimum: smaller, there is no map to speak of.
    public init(style: MapStyle, size: MapSize) {
        self.style = style
        self.size = MapSize(columns: max(size.columns, MapSize.minimum.columns), rows: max(size.rows, MapSize.minimum.rows))
    }

    public func render(_ scene: RadarScene) -> MapFrame {
        let columns = size.columns
        let available = size.rows - 1
        // The map keeps two thirds of the rows at least; the legend gets what remains.
        let mapRows = max(available * 2 / 3, available - scene.posts.count)
        let center = CellPosition(column: columns / 2, row: mapRows / 2)
        // In cell widths: a row is two. The outermost cells are kept for the arrows.
        let halfSpan = min(Double(columns) / 2 - 1, Double(mapRows) - 2)
        let cellWidth = scene.filterRadius.meters / (Self.filterCircleShare * halfSpan)
        let projection = MapProjection(center: scene.fix.point)
        let middle = (x: Double(center.column) + 0.5, y: Double(center.row) + 0.5)
        func position(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
            let (east, north) = projection.offset(latitude: latitude, longitude: longitude)
            return (middle.x + east.meters / cellWidth, middle.y - north.meters / (2 * cellWidth))
        }
        func position(_ point: GeoPoint) -> (x: Double, y: Double) {
            position(latitude: point.latitude, longitude: point.longitude)
        }

        var canvas = DotCanvas(style: style, columns: columns, rows: mapRows)
        func circle(_ radius: Distance, dashed: Bool, _ layer: MapLayer) {
            canvas.ellipse(cx: middle.x * Double(style.dotsAcross), cy: middle.y * Double(style.dotsDown),
                           rx: radius.meters / cellWidth * Double(style.dotsAcross),
                           ry: radius.meters / (2 * cellWidth) * Double(style.dotsDown), dashed: dashed, layer)
        }
        let step = Distance.meters(scene.filterRadius.meters / 2).roundedDown(in: scene.units)
        let farthest = hypot(Double(columns) / 2, Double(mapRows)) * cellWidth
        var rings: [Distance] = []
        // Four rings at most: more would hide the posts among dashes.
        for multiple in 1...40 where Double(multiple) * step.meters <= farthest && rings.count < Self.mostRings {
            let ring = Distance(step.value * Double(multiple), step.unit)
            // A ring on the filter circle would only blur it.
            guard abs(ring.meters - scene.filterRadius.meters) > step.meters / 4 else { continue }
            circle(ring, dashed: true, .rangeRing)
            rings.append(ring)
        }
        circle(scene.filterRadius, dashed: false, .filterCircle)
        // A ring inside your own cell says nothing.
        if let accuracy = scene.fix.accuracy, accuracy.meters > cellWidth {
            circle(accuracy, dashed: false, .accuracyRing)
        }

        // GEOS cuts the coastline to the view; were it missing, the map is drawn without the coast (and says nothing of it).
        let showsCoast = Double(columns) * cellWidth >= Coastline.narrowestView.meters
        let coast = showsCoast ? try? Coastline.pieces(within: projection.boxes(
            halfWidth: .meters(Double(columns) / 2 * cellWidth), halfHeight: .meters(Double(mapRows) * cellWidth))) : nil
        for piece in coast ?? [] {
            let dots = piece.map { vertex in
                let (x, y) = position(latitude: vertex.latitude, longitude: vertex.longitude)
                return (x: Int((x * Double(style.dotsAcross)).rounded(.down)), y: Int((y * Double(style.dotsDown)).rounded(.down)))
            }
            for (from, to) in zip(dots, dots.dropFirst()) {
                canvas.line(from: from, to: to, .coastline)
            }
        }

        var board = LabelBoard(background: (0..<mapRows).map { row in
            (0..<columns).map { canvas.cell(at: CellPosition(column: $0, row: row)) }
        })
        board.fix(MapCell(style.user, .user), at: center)

        var readable = 0
        let glyphs: [Character] = scene.posts.map { post in
            guard post.visible else { return style.hiddenPost }
            defer { readable += 1 }
            return MarkerKey.key(readable) ?? style.unkeyedPost
        }

        var inView: [CellPosition: [Int]] = [:], inViewOrder: [CellPosition] = []
        var beyond: [CellPosition: [Int]] = [:], beyondOrder: [CellPosition] = []
        for (index, post) in scene.posts.enumerated() {
            let (x, y) = position(post.location)
            let cell = CellPosition(column: Int(x.rounded(.down)), row: Int(y.rounded(.down)))
            if cell.column >= 1, cell.column <= columns - 2, cell.row >= 1, cell.row <= mapRows - 2 {
                if inView[cell] == nil { inViewOrder.append(cell) }
                inView[cell, default: []].append(index)
                continue
            }
            // Where the line from you towards it crosses the middle of the outermost cells.
            let dx = x - middle.x, dy = y - middle.y
            var reach = Double.infinity
            if dx != 0 { reach = min(reach, ((dx > 0 ? Double(columns) - 0.5 : 0.5) - middle.x) / dx) }
            if dy != 0 { reach = min(reach, ((dy > 0 ? Double(mapRows) - 0.5 : 0.5) - middle.y) / dy) }
            let edge = CellPosition(column: min(columns - 1, max(0, Int((middle.x + reach * dx).rounded(.down)))),
                                    row: min(mapRows - 1, max(0, Int((middle.y + reach * dy).rounded(.down)))))
            if beyond[edge] == nil { beyondOrder.append(edge) }
            beyond[edge, default: []].append(index)
        }

        let markers = inViewOrder.map { MapMarker(cell: $0, posts: inView[$0]!) }
        for marker in markers where marker.cell != center {
            let lead = marker.posts.first { scene.posts[$0].visible }
            board.fix(MapCell(glyphs[lead ?? marker.posts[0]], lead == nil ? .hiddenPost : .post), at: marker.cell)
        }
        let arrows = beyondOrder.map { cell in
            let posts = beyond[cell]!
            let nearest = posts.map { scene.posts[$0].distance }.min()!
            return EdgeArrow(cell: cell, direction: CompassPoint(bearing: projection.bearing(of: scene.posts[posts[0]].location)),
                             posts: posts, nearest: nearest)
        }
        for arrow in arrows {
            board.fix(MapCell(style.arrow(arrow.direction), .arrow), at: arrow.cell)
        }

        // Labels, most telling first: whatever finds no room is left out, never drawn over.
        // Right of a cell, so "2+1" reads as post 2 and one more; left where the edge leaves no room.
        func beside(_ cell: CellPosition, _ text: String) -> [CellPosition] {
            [CellPosition(column: cell.column + 1, row: cell.row), CellPosition(column: cell.column - text.count, row: cell.row)]
        }
        for marker in markers {
            let more = marker.posts.count > 1 ? "+\(marker.posts.count - 1)" : ""
            if marker.cell == center {
                // You keep the centre; the posts there are named beside you.
                let text = String(glyphs[marker.posts[0]]) + more
                board.place(text, at: beside(center, text))
            } else if !more.isEmpty {
                board.place(more, at: beside(marker.cell, more))
            }
        }
        for arrow in arrows {
            let distance = arrow.nearest.readable(in: scene.units).flagForm
            let text = arrow.posts.count > 1 ? "\(arrow.posts.count) \(distance)" : distance
            let inward = CellPosition(column: arrow.cell.column, row: arrow.cell.row + (arrow.cell.row == 0 ? 1 : -1))
            board.place(text, at: beside(arrow.cell, text) + beside(inward, text))
        }
        let north = "N" + String(style.arrow(.north))
        board.place(north, at: [CellPosition(column: columns - 3, row: 0), CellPosition(column: columns - 3, row: 1),
                                CellPosition(column: 1, row: 0)])
        let bar = Distance.meters(cellWidth * 10).roundedDown(in: scene.units)
        let barCells = max(2, Int((bar.meters / cellWidth).rounded()))
        let (end, body, start) = style.scaleBar
        let scaleBar = String(start) + String(repeating: body, count: barCells - 2) + String(end) + " " + bar.description
        board.place(scaleBar, at: [CellPosition(column: 1, row: mapRows - 1), CellPosition(column: 1, row: mapRows - 2)])
        if coast != nil {
            let label = Coastline.label(in: style)
            board.place(label, at: [CellPosition(column: columns - label.count - 1, row: mapRows - 1),
                                    CellPosition(column: columns - label.count - 1, row: mapRows - 2)])
        }
        for marker in markers where marker.cell != center && marker.posts.count == 1 && !scene.posts[marker.posts[0]].visible {
            let text = scene.posts[marker.posts[0]].distance.readable(in: scene.units).flagForm
            board.place(text, at: beside(marker.cell, text))
        }
        for ring in rings {
            let top = Int((middle.y - ring.meters / (2 * cellWidth)).rounded(.down))
            board.place(ring.flagForm, at: [CellPosition(column: center.column + 1, row: top)])
        }

        var lit: [MapLayer: Set<CellPosition>] = [:]
        for layer in MapLayer.allCases { lit[layer] = canvas.cells(of: layer) }
        return MapFrame(size: size, grid: board.grid, center: center, cellWidth: .meters(cellWidth), markers: markers, arrows: arrows,
                        lit: lit, legend: legend(scene, glyphs: glyphs, projection: projection, rows: available - mapRows),
                        status: status(scene, cellWidth: .meters(cellWidth)))
    }

    /// The posts' lines, as many as `rows` holds; the last says how many are left out.
    private func legend(_ scene: RadarScene, glyphs: [Character], projection: MapProjection, rows: Int) -> [LegendLine] {
        let posts = scene.posts
        let listed = posts.count <= rows ? posts.count : max(0, rows - 1)
        var lines = posts.indices.prefix(listed).map { index in
            let post = posts[index]
            let distance = post.distance.readable(in: scene.units).description
            let direction = CompassPoint(bearing: projection.bearing(of: post.location)).rawValue
            // Only a readable post's text is ever read here.
            let text = post.visible ? Self.oneLine(post.text ?? "") : Self.hiddenNote
            return LegendLine(text: "\(glyphs[index]) " + distance.leftPadded(to: 9) + " " + direction.rightPadded(to: 2) + "  " + text,
                              hidden: !post.visible)
        }
        if listed < posts.count, rows > 0 {
            lines.append(LegendLine(text: "… \(posts.count - listed) more: a taller map lists them", hidden: false))
        }
        return lines
    }

    private func status(_ scene: RadarScene, cellWidth: Distance) -> String {
        let hidden = scene.posts.filter { !$0.visible }.count
        var fix = scene.fix.source
        if let accuracy = scene.fix.accuracy { fix += " ±" + accuracy.readable(in: scene.units).flagForm }
        if let time = scene.fix.time { fix += " " + Self.age(scene.now.timeIntervalSince(time)) }
        // The source last: a path can be long, and a cut line keeps the rest.
        return ["radius \(scene.filterRadius.readable(in: scene.units))",
                "\(scene.posts.count - hidden) shown, \(hidden) hidden",
                "1 col = \(cellWidth.readable(in: scene.units))",
                fix].joined(separator: style == .ascii ? " | " : " · ")
    }

    private static func age(_ seconds: TimeInterval) -> String {
        let whole = max(0, Int(seconds))
        if whole < 60 { return "\(whole)s ago" }
        if whole < 3600 { return "\(whole / 60)min ago" }
        return "\(whole / 3600)h ago"
    }

    /// Text on one line that cannot steer a terminal: line breaks and tabs as spaces, other controls as U+FFFD.
    static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            guard scalar.isControl else { return scalar }
            return scalar == "\n" || scalar == "\r" || scalar == "\t" ? " " : "\u{FFFD}"
        }))
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
    fileprivate func rightPadded(to width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
