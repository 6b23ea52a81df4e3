//! The search tree: PUCT selection over a few children per node, chosen by the move
//! priors, with the static evaluation at the leaves instead of random playouts.
//!
//! Results are proven, never guessed from a mean near 1: a node is lost for the side to
//! move when one move wins, won when the opponent's threats cannot all be stopped (see
//! [`tactics::cannot_stop`]), and otherwise only once its children hold every move that
//! does not lose at once and each of them is proven. A node whose kept children all turn
//! out proven but which lacks that guarantee is widened with the moves it left out.

use punct_core::{Move, Position};

use crate::evaluation::features::{MoveContext, best, normalise, one_ply_value, refined_priors};
use crate::evaluation::{Distances, advantage};
use crate::learned::{Priors, learned_priors};
use crate::search::params::Params;
use crate::tactics;

/// Moves judged by the static evaluation when priors are refined.
pub const REFINE_SHORTLIST: usize = 400;

/// Moves judged by the static evaluation at other nodes.
pub const TREE_SHORTLIST: usize = 128;

/// A node: the move leading to it, and the statistics from the view of the player who made
/// that move.
#[derive(Debug)]
pub struct Node {
    /// The move into this node (meaningless at the root).
    pub mv: Move,
    /// The prior probability of `mv` among its siblings.
    pub prior: f32,
    /// Times visited.
    pub visits: u32,
    /// Playouts under way below this node on other threads of a search, each counted as a
    /// loss until it is done (virtual loss), so that threads spread over the tree.
    pub in_flight: u32,
    /// Sum of the results, 1 a win for the player who made `mv`.
    pub total: f32,
    /// Known result for the player who made `mv`, once the game is decided here.
    pub proven: Option<f32>,
    /// Whether the children hold every legal move that does not lose at once, so that
    /// results proven for all of them are proven for this node.
    pub complete: bool,
    /// Whether the children's priors come from judging each one ply deep.
    pub refined: bool,
    /// How many of the children, from the first, are judged and open to selection once the
    /// node is [refined](Node::refined); the rest wait for more visits.
    pub judged: u32,
    /// The static evaluation one ply deep of `mv` for the player who made it, when its
    /// parent judged it.
    pub judgement: f32,
    /// The static evaluation of this node for the player who made `mv`, when its parent
    /// judged it before its first visit.
    pub estimate: Option<f32>,
    /// The children made so far, empty until expanded: a prefix, in order, of all the
    /// children, the rest waiting in `pending`.
    pub children: Vec<Node>,
    /// The children not made yet, as moves and priors, the next last (`None` when there is
    /// none): a child becomes a node when it is judged or chosen, so that the many a node
    /// never tries cost a few bytes each.
    pub pending: Option<Box<Vec<(Move, f32)>>>,
    /// The moves that do not lose at once and are not yet children, once the node has
    /// been [widened](Node::widen) and is still incomplete: kept so that the next widening
    /// need not try every legal move again.
    pub left_out: Option<Box<Vec<Move>>>,
}

/// What a playout needs besides the tree.
pub struct Playout<'a> {
    /// Reused buffer for move generation.
    pub moves: &'a mut Vec<Move>,
    /// Nodes in the tree so far.
    pub size: &'a mut usize,
    /// Nodes the tree may hold; beyond it leaves are evaluated again instead of expanded.
    pub capacity: usize,
    /// The search's settings.
    pub params: Params,
    /// Whether to give up work that may take long (widening), because the search must stop.
    pub give_up: &'a dyn Fn() -> bool,
}

impl Node {
    /// A leaf reached by `mv`.
    pub fn new(mv: Move, prior: f32) -> Node {
        Node {
            mv,
            prior,
            visits: 0,
            in_flight: 0,
            total: 0.0,
            proven: None,
            complete: false,
            refined: false,
            judged: 0,
            judgement: 0.0,
            estimate: None,
            children: Vec::new(),
            pending: None,
            left_out: None,
        }
    }

    /// Mean result for the player who made `mv`.
    pub fn mean(&self) -> f32 {
        match self.proven {
            Some(v) => v,
            None if self.visits == 0 => 0.5,
            None => self.total / self.visits as f32,
        }
    }

    /// Number of nodes in this subtree, counting the children not made yet.
    pub fn size(&self) -> usize {
        1 + self.waiting().len() + self.children.iter().map(Node::size).sum::<usize>()
    }

    /// How many children this node has, made or not.
    pub fn child_count(&self) -> usize {
        self.children.len() + self.waiting().len()
    }

    /// The children not made yet, the next last.
    fn waiting(&self) -> &[(Move, f32)] {
        self.pending.as_deref().map_or(&[], |p| p.as_slice())
    }

    /// The moves of all the children, in order, made or not.
    pub fn child_moves(&self) -> impl Iterator<Item = Move> + '_ {
        let pending = self.waiting().iter().rev().map(|&(mv, _)| mv);
        self.children.iter().map(|c| c.mv).chain(pending)
    }

    /// The child reached by `mv`, made or not, with its subtree.
    pub fn into_child(self, mv: Move) -> Option<Node> {
        let waiting = self.waiting().iter().find(|&&(m, _)| m == mv).copied();
        match self.children.into_iter().find(|c| c.mv == mv) {
            Some(child) => Some(child),
            None => waiting.map(|(mv, prior)| Node::new(mv, prior)),
        }
    }

    /// Makes the next child waiting, if any; returns whether there was one.
    fn make_next_child(&mut self) -> bool {
        let Some(pending) = &mut self.pending else {
            return false;
        };
        let next = pending.pop();
        if pending.is_empty() {
            self.pending = None;
        }
        match next {
            Some((mv, prior)) => {
                self.children.push(Node::new(mv, prior));
                true
            }
            None => false,
        }
    }

    /// Gives this node children: the `k` best moves of `pos` (or of `given` when set) by
    /// prior, [refined](refined_priors) when `refine` is set. Returns false when there is
    /// no move.
    pub fn expand_wide(
        &mut self,
        pos: &Position,
        given: Option<&[Move]>,
        k: usize,
        refine: bool,
        io: &mut Playout,
    ) -> bool {
        io.moves.clear();
        match given {
            Some(moves) => io.moves.extend_from_slice(moves),
            None => pos.extend_legal_moves(io.moves),
        }
        if io.moves.is_empty() {
            return false;
        }
        let chosen = match io.params.priors {
            Priors::HandSet => {
                let ctx = MoveContext::new(pos);
                let shortlist = if refine {
                    REFINE_SHORTLIST
                } else {
                    TREE_SHORTLIST
                };
                refined_priors(&mut pos.clone(), &ctx, io.moves, shortlist, k)
            }
            Priors::Learned { shortlist } => {
                let shortlist = if refine {
                    REFINE_SHORTLIST
                } else if io.params.refine_at > 0 {
                    0
                } else {
                    shortlist
                };
                learned_priors(
                    &mut pos.clone(),
                    io.moves,
                    shortlist,
                    k,
                    io.params.policy_sharpness,
                )
            }
        };
        *io.size += chosen.len();
        // Room at once for the children judged at the first refinement, so that the list
        // seldom grows as they are made one by one.
        let first_judged = io.params.width(io.params.refine_at.max(1));
        self.children = Vec::with_capacity(first_judged.min(chosen.len()));
        self.pending = Some(Box::new(chosen.into_iter().rev().collect()));
        self.complete = false;
        self.refined = refine
            || match io.params.priors {
                Priors::HandSet => true,
                Priors::Learned { shortlist } => io.params.refine_at == 0 && shortlist > 0,
            };
        self.judged = 0;
        // The first child is made at once (a node with children is expanded); all of them
        // when every child is open to selection already.
        self.make_next_child();
        if self.refined {
            while self.make_next_child() {}
            self.open_all();
        }
        true
    }

    /// Expands a leaf visited before, whose position is `pos`. When the opponent threatens
    /// to win at once, the children are chosen among the moves that might stop it. When
    /// there is no legal move the node is proven a draw instead, and when nothing stops the
    /// opponent's wins in one (checked here unless the leaf's first visit did) a loss; the
    /// result is then returned.
    pub(crate) fn expand(&mut self, pos: &mut Position, io: &mut Playout) -> Option<f32> {
        io.moves.clear();
        pos.extend_legal_moves(io.moves);
        if io.moves.is_empty() {
            // No legal move: a draw.
            self.proven = Some(0.5);
            return self.proven;
        }
        // The moves that might stop a threat, not only those that do: trying each costs
        // more than proving the few kept children that fail lost at their first visit.
        let branching = io.params.branching;
        let all = std::mem::take(io.moves);
        let threatened = tactics::Threatened::of(pos);
        let choices = match &threatened {
            Some(t) if !t.candidates.is_empty() => &t.candidates,
            _ => &all,
        };
        self.expand_wide(pos, Some(choices.as_slice()), branching, false, io);
        let threatened = match threatened {
            // Else nothing threatens, or the leaf's first visit checked whether anything
            // stops the threats.
            Some(t) if !io.params.threats_at_leaves => t,
            _ => {
                *io.moves = all;
                return None;
            }
        };
        // The children, the likeliest stoppers, are tried first: most candidates fail, and
        // in the order generated hundreds are tried before one stops the threats.
        let parried = self.child_moves().any(|mv| threatened.parried_by(pos, mv))
            || threatened
                .candidates
                .iter()
                .any(|&mv| self.child_moves().all(|c| c != mv) && threatened.parried_by(pos, mv));
        // The cells the threats depend on are where a stopper is expected, not a proof that
        // there is none elsewhere: a loss is claimed only once every move has been tried.
        let lost = !parried && tactics::safe_moves(pos, &all).is_empty();
        *io.moves = all;
        if lost {
            // The opponent wins whatever is played: a win for the player who made `mv`.
            self.proven = Some(1.0);
            return self.proven;
        }
        None
    }

    /// Brings this node's proof up to date after its child `i` was proven: a winning move
    /// proves a loss for the player who made `mv`; otherwise once every child is proven,
    /// the node is proven when its children are [complete](Node::complete), or else is
    /// given the moves not yet among them that do not lose at once.
    pub(crate) fn settle(&mut self, i: usize, pos: &mut Position, io: &mut Playout) {
        if self.children[i].proven == Some(1.0) {
            self.proven = Some(0.0);
            return;
        }
        if self.pending.is_some() || self.children.iter().any(|c| c.proven.is_none()) {
            return;
        }
        if !self.complete {
            self.widen(pos, io);
        }
        // Widening may have added children not proven yet.
        if self.complete && self.children.iter().all(|c| c.proven.is_some()) {
            // Every move left out loses at once, so the best child is the best move.
            let best = self
                .children
                .iter()
                .filter_map(|c| c.proven)
                .fold(0.0, f32::max);
            self.proven = Some(1.0 - best);
        }
    }

    /// Adds children for the best of the legal moves of `pos` not yet among them that do
    /// not lose at once, finding out on the way whether the children are now complete.
    /// Those moves are found once, on the first widening, and kept for the next; finding
    /// them is given up, leaving the node as it was, when [`Playout::give_up`] says so.
    fn widen(&mut self, pos: &mut Position, io: &mut Playout) {
        if *io.size >= io.capacity {
            return;
        }
        let safe = match self.left_out.take() {
            Some(rest) => *rest,
            None => {
                io.moves.clear();
                pos.extend_legal_moves(io.moves);
                let mut known: Vec<Move> = self.children.iter().map(|c| c.mv).collect();
                known.sort_unstable();
                io.moves.retain(|mv| known.binary_search(mv).is_err());
                match tactics::safe_moves_unless(pos, io.moves, io.give_up) {
                    Some(safe) => safe,
                    None => return,
                }
            }
        };
        let branching = io.params.branching;
        self.complete = safe.len() <= branching;
        if safe.is_empty() {
            return;
        }
        let ctx = MoveContext::new(pos);
        let chosen = refined_priors(pos, &ctx, &safe, TREE_SHORTLIST, branching);
        *io.size += chosen.len();
        if !self.complete {
            let mut rest = safe;
            rest.retain(|mv| chosen.iter().all(|(c, _)| c != mv));
            self.left_out = Some(Box::new(rest));
        }
        self.children
            .extend(chosen.into_iter().map(|(mv, p)| Node::new(mv, p)));
        if self.refined {
            self.open_all();
        }
    }

    /// Opens every child to selection, for children whose priors need no more judging.
    pub fn open_all(&mut self) {
        self.judged = self.children.len() as u32;
    }

    /// Forgets the moves kept by the last widening, for a node whose children were just
    /// chosen afresh.
    pub fn forget_left_out(&mut self) {
        self.left_out = None;
    }

    /// Judges children one ply deep by the static evaluation, from the first not judged
    /// yet, until `width` of them not proven are judged (all with `usize::MAX`): a child's
    /// value becomes its first estimate, and a softmax of the judged values the priors of
    /// the judged children, which are put first, best first, and are those selection
    /// chooses among; `width` is [`Params::width`] at the node's visits, and the priors'
    /// softmax has [`Params::refined_sharpness`].
    pub(crate) fn refine(&mut self, pos: &mut Position, params: &Params) {
        let width = params.width(self.visits);
        let mut open = 0;
        let mut i = 0;
        while i < self.child_count() {
            if i >= self.judged as usize {
                if open >= width {
                    break;
                }
                if i == self.children.len() {
                    self.make_next_child();
                }
                let child = &mut self.children[i];
                if child.proven.is_none() {
                    child.judgement = one_ply_value(pos, child.mv);
                    child.estimate = Some(params.win_probability(child.judgement));
                }
                self.judged = i as u32 + 1;
            }
            if self.children[i].proven.is_none() {
                open += 1;
            }
            i += 1;
        }
        let judged = &mut self.children[..self.judged as usize];
        let values = judged
            .iter()
            .filter(|c| c.proven.is_none())
            .map(|c| (c.mv, c.judgement))
            .collect::<Vec<_>>();
        let n = values.len();
        let priors = normalise(best(values, n), params.refined_sharpness);
        for child in judged.iter_mut() {
            child.prior = priors
                .iter()
                .find(|(mv, _)| *mv == child.mv)
                .map_or(0.0, |&(_, p)| p);
        }
        judged.sort_by(|a, b| b.prior.total_cmp(&a.prior));
        self.refined = true;
    }

    /// Whether the search should judge more children one ply deep before choosing among
    /// them: the node has earned it and fewer than `width` judged children are not proven.
    pub(crate) fn wants_refining(&self, params: &Params) -> bool {
        if self.visits < params.refine_at {
            return false;
        }
        if !self.refined {
            return true;
        }
        let judged = self.judged as usize;
        judged < self.child_count()
            && self.children[..judged]
                .iter()
                .filter(|c| c.proven.is_none())
                .count()
                < params.width(self.visits)
    }

    /// The child PUCT picks, counting playouts under way on other threads as losses; a
    /// child not made yet is made when picked.
    pub(crate) fn select(&mut self, params: &Params) -> usize {
        // The node's own playouts under way are not counted: on one thread the search is
        // then exactly the search without threads.
        let sqrt_n = (self.visits.max(1) as f32).sqrt();
        // Unvisited children are assumed a little worse than this node's average for its
        // side to move, so good known moves are deepened before long shots are tried;
        // those judged one ply deep already have their estimate.
        let first_play = (1.0 - self.mean()) - params.fpu_reduction;
        let open = if self.refined {
            self.judged as usize
        } else {
            self.children.len()
        };
        let mut best = (0, f32::NEG_INFINITY);
        for (i, child) in self.children[..open].iter().enumerate() {
            let q = match child.proven {
                Some(v) => v,
                None if child.in_flight > 0 => {
                    child.total / (child.visits + child.in_flight) as f32
                }
                None if child.visits == 0 => child
                    .estimate
                    .map_or(first_play, |e| e - params.estimate_reduction),
                None => child.mean(),
            };
            let tried = (child.visits + child.in_flight) as f32;
            let u = params.exploration * child.prior * sqrt_n / (1.0 + tried);
            if q + u > best.1 {
                best = (i, q + u);
            }
        }
        // The children waiting are untried, with no estimate and priors best first, so
        // the next one scores best among them; it comes after every child made.
        if !self.refined
            && let Some(&(_, prior)) = self.waiting().last()
            && first_play + params.exploration * prior * sqrt_n > best.1
        {
            self.make_next_child();
            return self.children.len() - 1;
        }
        best.0
    }

    /// The line of most visited children.
    pub fn pv(&self) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut node = self;
        while let Some(best) = node.best_child() {
            pv.push(best.mv);
            node = best;
        }
        pv
    }

    /// The child to play: the first of [`Node::ranked`] that was visited or is a proven
    /// win.
    pub fn best_child(&self) -> Option<&Node> {
        self.ranked()
            .into_iter()
            .find(|c| c.visits > 0 || c.proven == Some(1.0))
    }

    /// The children, best first by [`Node::play_order`]; among equals the first child
    /// comes first, so that every caller breaks ties alike.
    pub fn ranked(&self) -> Vec<&Node> {
        let mut ranked: Vec<&Node> = self.children.iter().collect();
        ranked.sort_by(|a, b| b.play_order(a));
        ranked
    }

    /// How two siblings compare as the move to play: a proven win first and a proven loss
    /// last, then more visits, then a better mean, then (for moves not searched) a higher
    /// prior.
    pub fn play_order(&self, other: &Node) -> std::cmp::Ordering {
        let rank = |n: &Node| match n.proven {
            Some(1.0) => 2,
            Some(0.0) => 0,
            _ => 1,
        };
        rank(self)
            .cmp(&rank(other))
            .then(self.visits.cmp(&other.visits))
            .then(self.mean().total_cmp(&other.mean()))
            .then(self.prior.total_cmp(&other.prior))
    }
}

/// What the first visit of a node learns.
#[derive(Clone, Copy, Debug)]
pub enum Leaf {
    /// The game's result from here is known.
    Proven(f32),
    /// A judgement of the position.
    Estimate(f32),
}

impl Leaf {
    /// The value for the player who made the move into the node.
    pub fn value(self) -> f32 {
        match self {
            Leaf::Proven(v) | Leaf::Estimate(v) => v,
        }
    }
}

/// The value of a freshly reached position for the player who just moved: proven when
/// the game is over, when the side to move wins at once, or (with `threats`) when it
/// cannot stop the opponent's wins in one; else `estimate` when the parent judged it, or
/// the static evaluation spread by `params` ([`Params::win_probability`]).
pub(crate) fn leaf_value(
    pos: &mut Position,
    moves: &mut Vec<Move>,
    estimate: Option<f32>,
    threats: bool,
    params: &Params,
) -> Leaf {
    let mover = !pos.turn();
    if let Some(outcome) = pos.decisive_outcome() {
        return Leaf::Proven(match outcome.winner {
            Some(c) if c == mover => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        });
    }
    if tactics::winning_move(pos, None).is_some() {
        return Leaf::Proven(0.0);
    }
    if threats && tactics::cannot_stop(pos, moves) {
        return Leaf::Proven(1.0);
    }
    if let Some(e) = estimate {
        return Leaf::Estimate(e);
    }
    let d = Distances::quick(pos);
    Leaf::Estimate(1.0 - params.win_probability(advantage(pos, &d)))
}
