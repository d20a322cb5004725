//! `shown`: Leptos' `<Show>` without its type parameters. `<Show>` is generic over its condition
//! and its children, so each of the page's uses (44 of them) compiled its own memo, render effect and
//! `Either` view state; here the condition and the children are boxed and one copy of that code
//! serves every use (docs/decisions/0012-show-as-a-function.md). The behaviour is `<Show>`'s: the condition is memoized, so
//! the children are built again only when it turns from false to true.

use leptos::prelude::*;

type MakeView = Box<dyn Fn() -> AnyView + Send + Sync>;

/// `children` while `when` is true, else nothing.
pub fn shown(
    when: impl Fn() -> bool + Send + Sync + 'static,
    children: impl Fn() -> AnyView + Send + Sync + 'static,
) -> AnyView {
    either(Box::new(when), Box::new(children), None)
}

/// `children` while `when` is true, else `fallback`.
pub fn shown_or(
    when: impl Fn() -> bool + Send + Sync + 'static,
    children: impl Fn() -> AnyView + Send + Sync + 'static,
    fallback: impl Fn() -> AnyView + Send + Sync + 'static,
) -> AnyView {
    either(Box::new(when), Box::new(children), Some(Box::new(fallback)))
}

fn either(when: Box<dyn Fn() -> bool + Send + Sync>, children: MakeView, fallback: Option<MakeView>) -> AnyView {
    let when = Memo::new(move |_| when());
    (move || match (when.get(), &fallback) {
        (true, _) => children(),
        (false, Some(f)) => f(),
        (false, None) => ().into_any(),
    })
    .into_any()
}
