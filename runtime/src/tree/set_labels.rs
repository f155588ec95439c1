//! The information sets' labels, in a few arrays rather than a `String`
//! and a `Vec<String>` per set: a game with millions of sets (blind
//! tic-tac-toe) would make tens of millions of small allocations that the
//! build, a save and a read spend much of their time in, and freeing them
//! at the end as long. The sets' labels go back to back in one text,
//! and each set names its actions' labels by a list kept once however many
//! sets share it (a set's actions are usually those of many others).

use rustc_hash::FxHashMap;
use std::hash::{Hash, Hasher};

/// The bytes a set's entry in the arrays beside the text takes (its
/// label's end and its list), which a read counts before it adds a set.
pub(super) const SET_INDEX_BYTES: u64 = (std::mem::size_of::<usize>() + 4) as u64;

/// Labels of information sets `0 ..` in order.
#[derive(Clone, Debug, Default)]
pub(super) struct SetLabels {
    /// Every set's label back to back: set `i`'s ends at `ends[i]`.
    text: String,
    ends: Vec<usize>,
    /// Per set, its actions' list in `lists`.
    list_of: Vec<u32>,
    /// Per distinct list, where its labels start in `actions` and how many.
    lists: Vec<(usize, u32)>,
    actions: Vec<String>,
    /// A list's hash to its id, to find a list already kept. A list whose
    /// hash another list holds is kept again (equal lists are found, and a
    /// collision only costs room).
    by_hash: FxHashMap<u64, u32>,
}

impl SetLabels {
    /// How many sets have labels.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no set has labels.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Appends the next set's labels; returns the bytes of label text
    /// this adds (see [`SetLabels::text_bytes`]).
    pub fn push(&mut self, label: &str, actions: &[String]) -> u64 {
        self.text.push_str(label);
        self.ends.push(self.text.len());
        let (list, new) = self.list(actions);
        self.list_of.push(list);
        label.len() as u64 + if new { list_bytes(actions) } else { 0 }
    }

    /// The bytes [`SetLabels::push`] would count for a set with `actions`
    /// beyond its label's: the list's if it is new (then kept, without a
    /// set: see [`KeptLabels`]).
    pub fn count_list(&mut self, actions: &[String]) -> u64 {
        if self.list(actions).1 {
            list_bytes(actions)
        } else {
            0
        }
    }

    /// The id of the list of `actions`, and whether it is new (then kept).
    fn list(&mut self, actions: &[String]) -> (u32, bool) {
        let mut hasher = rustc_hash::FxHasher::default();
        actions.hash(&mut hasher);
        let hash = hasher.finish();
        if let Some(&id) = self.by_hash.get(&hash) {
            if self.list_labels(id) == actions {
                return (id, false);
            }
        }
        let id = self.lists.len() as u32;
        self.lists.push((self.actions.len(), actions.len() as u32));
        self.actions.extend_from_slice(actions);
        self.by_hash.entry(hash).or_insert(id);
        (id, true)
    }

    /// The label text held, as the tree's memory figure and a saved file
    /// count it: the sets' labels, and each list of action labels once
    /// with a `String` per label (counted from lengths, so that every
    /// builder and a read count alike).
    pub fn text_bytes(&self) -> u64 {
        self.text.len() as u64 + list_bytes(&self.actions)
    }

    /// The labels of list `id`.
    fn list_labels(&self, id: u32) -> &[String] {
        let (start, n) = self.lists[id as usize];
        &self.actions[start..start + n as usize]
    }

    /// Set `set`'s label, empty if it has none.
    pub fn label(&self, set: u32) -> &str {
        let i = set as usize;
        if i >= self.ends.len() {
            return "";
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.text[start..self.ends[i]]
    }

    /// Set `set`'s actions' labels, empty if it has none.
    pub fn actions(&self, set: u32) -> &[String] {
        self.list_of.get(set as usize).map_or(&[], |&id| self.list_labels(id))
    }

    /// Each set's label and actions' labels, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[String])> + '_ {
        (0..self.len() as u32).map(|s| (self.label(s), self.actions(s)))
    }

    /// Bytes of the arrays beside the label text (which the tree counts by
    /// the labels' lengths, as every builder does): their lengths, as
    /// [`Tree::bytes`](super::Tree::bytes) counts arrays.
    pub fn index_bytes(&self) -> u64 {
        (self.ends.len() * std::mem::size_of::<usize>()
            + self.list_of.len() * 4
            + self.lists.len() * std::mem::size_of::<(usize, u32)>()
            + self.by_hash.len() * 16) as u64
    }

    /// Gives set 0, which has no label and no actions (a placeholder),
    /// `label` and `actions`. Its empty list, the first, is dropped if no
    /// other set has it: the lists are then those of the sets, as the tree's
    /// memory figure counts them.
    pub(super) fn relabel_first(&mut self, label: &str, actions: &[String]) {
        debug_assert!(self.label(0).is_empty() && self.actions(0).is_empty());
        self.text.insert_str(0, label);
        for end in &mut self.ends {
            *end += label.len();
        }
        if self.list_of[0] == 0 && self.lists.first().is_some_and(|l| l.1 == 0) && !self.list_of[1..].contains(&0) {
            self.lists.remove(0);
            self.by_hash.retain(|_, id| *id != 0);
            self.by_hash.values_mut().for_each(|id| *id -= 1);
            self.list_of[1..].iter_mut().for_each(|id| *id -= 1);
        }
        self.list_of[0] = self.list(actions).0;
    }

    /// Gives back the room the arrays hold beyond their contents; the
    /// index of lists is only needed while sets are added.
    pub fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
        self.list_of.shrink_to_fit();
        self.lists.shrink_to_fit();
        self.actions.shrink_to_fit();
        self.by_hash = FxHashMap::default();
    }
}

/// A later part's labels, kept where the part made them rather than copied
/// into the merged tree's: the merge of a saved tree writes them to the
/// file after the tree's own (see [`super::parallel`]), so the merge does not
/// hold a second copy of them (docs/perf/tree-build.md, "Memory of a large
/// build").
pub(super) struct KeptLabels {
    labels: SetLabels,
    /// The part's sets new to the merged tree, in order: the merged tree's
    /// sets after those it has labels for (and after the earlier parts').
    sets: Vec<u32>,
}

impl KeptLabels {
    /// `labels`' sets `sets`, in that order.
    pub(super) fn new(labels: SetLabels, sets: Vec<u32>) -> KeptLabels {
        KeptLabels { labels, sets }
    }

    /// How many sets it labels.
    pub(super) fn len(&self) -> usize {
        self.sets.len()
    }

    /// The bytes the merged tree's index would hold for its sets, had they
    /// been copied in ([`SetLabels::index_bytes`]; their lists are counted
    /// there).
    pub(super) fn index_bytes(&self) -> u64 {
        self.sets.len() as u64 * SET_INDEX_BYTES
    }

    /// Each set's label and actions' labels, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, &[String])> + '_ {
        self.sets.iter().map(|&s| (self.labels.label(s), self.labels.actions(s)))
    }
}

/// The bytes a list of action labels counts: its text and a `String` each.
pub(super) fn list_bytes(actions: &[String]) -> u64 {
    actions.iter().map(|a| (a.len() + std::mem::size_of::<String>()) as u64).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sets_read_back_what_was_pushed_and_share_equal_lists() {
        let mut l = SetLabels::default();
        let string = std::mem::size_of::<String>() as u64;
        assert_eq!(l.push("a: x", &strings(&["up", "down"])), 4 + 2 + 4 + 2 * string);
        assert_eq!(l.push("", &strings(&["left"])), 4 + string);
        // The shared list counts once.
        assert_eq!(l.push("b: y", &strings(&["up", "down"])), 4);
        assert_eq!(l.push("c", &[]), 1);
        assert_eq!(l.text_bytes(), 9 + 6 + 2 * string + 4 + string);
        assert_eq!(l.len(), 4);
        assert_eq!(l.label(0), "a: x");
        assert_eq!(l.label(1), "");
        assert_eq!(l.label(2), "b: y");
        assert_eq!(l.label(3), "c");
        assert_eq!(l.actions(0), &strings(&["up", "down"])[..]);
        assert_eq!(l.actions(1), &strings(&["left"])[..]);
        assert_eq!(l.actions(2), l.actions(0));
        assert!(l.actions(3).is_empty());
        assert_eq!(l.label(9), "");
        assert!(l.actions(9).is_empty());
        // Three distinct lists (one empty), the shared one kept once.
        assert_eq!(l.lists.len(), 3);
        assert_eq!(l.actions.len(), 3);
        l.shrink_to_fit();
        l.push("d", &strings(&["up", "down"]));
        assert_eq!(l.actions(4), &strings(&["up", "down"])[..]);
        let all: Vec<(&str, usize)> = l.iter().map(|(s, a)| (s, a.len())).collect();
        assert_eq!(all, vec![("a: x", 2), ("", 1), ("b: y", 2), ("c", 0), ("d", 2)]);
    }

    /// A placeholder first set relabelled reads back, and counts, as if
    /// it had been pushed with its labels first.
    #[test]
    fn a_relabelled_first_set_is_one_pushed_first() {
        let sets = [("p", strings(&["one", "two"])), ("q", strings(&["two"])), ("r", strings(&["one", "two"]))];
        let mut pushed = SetLabels::default();
        for (label, actions) in &sets {
            pushed.push(label, actions);
        }
        let mut relabelled = SetLabels::default();
        relabelled.push("", &[]);
        for (label, actions) in &sets[1..] {
            relabelled.push(label, actions);
        }
        relabelled.relabel_first(sets[0].0, &sets[0].1);
        assert!(relabelled.iter().eq(pushed.iter()));
        assert_eq!(relabelled.text_bytes(), pushed.text_bytes());
        assert_eq!(relabelled.index_bytes(), pushed.index_bytes());
        // Later sets still find the lists kept.
        relabelled.push("s", &strings(&["two"]));
        pushed.push("s", &strings(&["two"]));
        assert_eq!((relabelled.text_bytes(), relabelled.index_bytes()), (pushed.text_bytes(), pushed.index_bytes()));
    }

    #[test]
    fn a_list_whose_hash_is_taken_is_kept_apart() {
        let mut l = SetLabels::default();
        l.push("p", &strings(&["one"]));
        // Pretend another list has the hash of ["two"].
        let mut hasher = rustc_hash::FxHasher::default();
        strings(&["two"]).hash(&mut hasher);
        l.by_hash.insert(hasher.finish(), 0);
        l.push("q", &strings(&["two"]));
        assert_eq!(l.actions(0), &strings(&["one"])[..]);
        assert_eq!(l.actions(1), &strings(&["two"])[..]);
    }
}
