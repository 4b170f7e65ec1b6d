"""Issue 37's targets as the benchmark scripts print them: each figure beside its peer measured in
the same run, their ratio, the target and whether this run met it."""


class Target:
    """A figure's target: ours / peer at least (`at_least`) or at most `ratio`."""

    def __init__(self, figure, ratio, at_least=True):
        self.figure, self.ratio, self.at_least = figure, ratio, at_least

    def met(self, ratio):
        return ratio >= self.ratio if self.at_least else ratio <= self.ratio

    def describe(self):
        return f"{'≥' if self.at_least else '≤'} {self.ratio}x"


def figure(value):
    """A measured figure as the tables show it: whole numbers from 100 on, three digits below."""
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def lines(rows):
    """One line a figure: `rows` holds (target, ours, peer name, peer) with ours and peer in the
    same unit (the figure's name says which); a table whose last column says MET or MISSED."""
    out = ["| figure | ours | peer, same run | ratio | target | |", "|---|---:|---|---:|---|---|"]
    for target, ours, peer_name, peer in rows:
        ratio = ours / peer if peer else float("nan")
        out.append(f"| {target.figure} | {figure(ours)} | {peer_name}: {figure(peer)} | {ratio:.3f}x | {target.describe()} "
                   f"| {'MET' if target.met(ratio) else 'MISSED'} |")
    return "\n".join(out)
