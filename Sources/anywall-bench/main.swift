import EmbeddedStore
import WallDomain
import WallLocation
// anywall-bench: times the embedded wall's nearby query in process, so the query's own cost
// can be told apart from process start-up (which scripts/bench-wall measures separately).
AnywallBench.main()
