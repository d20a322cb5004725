//! One stable sort for the whole app. `slice::sort_by` compiles a copy of the standard library's
//! sort (about 4 KB of wasm) for every element type and comparison closure; these helpers sort a
//! permutation of indices with one closure type instead, so the page carries a single copy
//! (docs/decisions/0011-one-stable-sort.md). They are as stable as `sort_by`: equal elements keep their order.
use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably, like `slice::sort_by`.
pub fn sort_by<T>(v: &mut Vec<T>, mut cmp: impl FnMut(&T, &T) -> Ordering) {
    let order = {
        let items: &[T] = v;
        permutation(items.len(), &mut |a, b| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => Ordering::Equal,
        })
    };
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots.get_mut(i).and_then(Option::take)));
}

/// Sorts `v` by the key `f` gives each element, stably, like `slice::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, mut f: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| f(a).cmp(&f(b)))
}

/// The indices `0..n` in the order `cmp` (comparing indices) puts them: the one instance of the
/// standard library's stable sort.
fn permutation(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|a, b| cmp(*a, *b));
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_like_the_standard_library_and_keeps_equal_elements_in_order() {
        let mut v: Vec<(i32, char)> = vec![(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e'), (0, 'f')];
        let mut expected = v.clone();
        expected.sort_by_key(|p| p.0);
        sort_by_key(&mut v, |p| p.0);
        assert_eq!(v, expected);
        assert_eq!(v, vec![(0, 'f'), (1, 'b'), (1, 'e'), (2, 'd'), (3, 'a'), (3, 'c')]);
        sort_by(&mut v, |a, b| b.1.cmp(&a.1));
        assert_eq!(v.iter().map(|p| p.1).collect::<String>(), "fedcba");
        let mut empty: Vec<u8> = vec![];
        sort_by(&mut empty, u8::cmp);
        assert!(empty.is_empty());
    }
}
