//! Template parameter synthesis (the 2LS loop of Section II) and the final checks.
//!
//! Consumes an [`Encoding`] and its [`Templates`]; produces parameters for which every
//! inductiveness obligation holds, found by iterated SMT queries: starting from bottom, ask
//! for a model that violates some obligation under the current parameters, join the model's
//! values into the violated rows, repeat until unsatisfiable; widened rows are narrowed back.
//! Then the error calls are checked under the invariant; while one is reachable, a descent
//! (Houdini over tighter bounds) looks for a stronger inductive invariant. A TRUE is
//! re-checked by a fresh solver that sees only the program formula and the parameters as
//! constants.

use super::encode::Encoding;
use super::template::{Param, Side, Templates};
use crate::engine::Budget;
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::Bool;
use z3::{Model, SatResult, Solver};

/// The most parameter changes before giving up.
const MAX_JOINS: usize = 2000;

/// How often narrowing may move a narrowed row out to the extreme value a run gives it
/// before the row gets its widened parameter back.
const MAX_REGROWTHS: usize = 4;

/// How many descents may tighten an invariant that does not exclude an error.
const MAX_DESCENTS: usize = 8;

/// What the synthesis found.
pub enum Found {
    /// An inductive invariant that excludes every error call (re-checked), after `rounds`.
    Safe {
        /// Candidate checks made.
        rounds: usize,
    },
    /// An inductive invariant under which an error call is reachable (line of the call),
    /// after `rounds` checks.
    ErrorReachable(u32, usize),
    /// An inductive invariant that does not exclude undefined behaviour (its line and kind).
    UndefinedReachable(u32, &'static str, usize),
}

/// Synthesises the parameters of `tpl` for `enc` and checks the error calls.
pub fn synthesise(enc: &Encoding, tpl: &mut Templates, budget: Budget) -> Result<Found, String> {
    let solver = Solver::new();
    set_timeout(&solver, budget);
    for b in &enc.background {
        solver.assert(b);
    }
    let violations: Vec<Bool> = (enc.obligations.iter())
        .map(|o| Bool::and(&[o.guard.clone(), o.holds.not()]))
        .collect();
    let mut rounds = 0;
    let mut joins = 0;
    // Loop nest by loop nest in program order: a nest's obligations read only the rows of
    // its own and earlier nests, so each nest is solved and narrowed before the next one
    // sees its rows (values joined under a transiently widened earlier row would otherwise
    // stay in the later rows' hulls and defeat their narrowing).
    let nests: BTreeSet<usize> = enc.obligations.iter().map(|o| o.nest).collect();
    for nest in nests {
        let mine: Vec<usize> = (0..violations.len())
            .filter(|i| enc.obligations[*i].nest == nest)
            .collect();
        let stage = Stage {
            enc,
            violations: &violations,
            mine: &mine,
            budget,
        };
        let begun = std::time::Instant::now();
        stage.solve(&solver, tpl, &mut rounds, &mut joins)?;
        let solved = begun.elapsed().as_secs_f64();
        stage.narrow(&solver, tpl, &mut rounds, false)?;
        if debugging() {
            eprintln!(
                "nest {nest}: solved in {solved:.2} s, narrowed in {:.2} s",
                begun.elapsed().as_secs_f64() - solved
            );
        }
    }
    if debugging() {
        dump_guards(&solver, enc, tpl);
    }
    let errors: Vec<Bool> = enc.errors.iter().map(|(g, _)| g.clone()).collect();
    let undefined: Vec<Bool> = enc.undefined.iter().map(|(g, _, _)| g.clone()).collect();
    let (mut narrowed, mut descents) = (false, 0);
    let all: Vec<usize> = (0..violations.len()).collect();
    let whole = Stage {
        enc,
        violations: &violations,
        mine: &all,
        budget,
    };
    loop {
        let fix = tpl.fix();
        let error = first_reachable(&solver, &fix, &errors)?;
        let ub = match error {
            Some(_) => None,
            None => first_reachable(&solver, &fix, &undefined)?,
        };
        if debugging() {
            eprintln!("error call {error:?}, undefined behaviour {ub:?} under the invariant");
        }
        match (error, ub) {
            (None, None) => break,
            _ if !narrowed && whole.narrow(&solver, tpl, &mut rounds, true)? => {
                narrowed = true;
            }
            _ if descents < MAX_DESCENTS && whole.descend(&solver, tpl, &mut rounds)? => {
                (narrowed, descents) = (true, descents + 1);
            }
            (Some(i), _) => return Ok(Found::ErrorReachable(enc.errors[i].1, rounds)),
            (None, Some(i)) => {
                let (_, line, what) = enc.undefined[i];
                return Ok(Found::UndefinedReachable(line, what, rounds));
            }
        }
    }
    let bad = Bool::or(&[Bool::or(&errors), Bool::or(&undefined)]);
    let rechecking = std::time::Instant::now();
    recheck(enc, tpl, &violations, &bad, budget)?;
    if debugging() {
        eprintln!("re-checked in {:.2} s", rechecking.elapsed().as_secs_f64());
    }
    Ok(Found::Safe { rounds })
}

/// Prints whether each obligation's guard is satisfiable under the current parameters (an
/// unsatisfiable guard: the row's loop head is unreachable under the invariant).
fn dump_guards(solver: &Solver, enc: &Encoding, tpl: &Templates) {
    let fix = tpl.fix();
    for o in &enc.obligations {
        solver.push();
        for f in &fix {
            solver.assert(f);
        }
        solver.assert(&o.guard);
        let r = solver.check();
        eprintln!("obligation on {}: guard {r:?}", tpl.rows[o.row].what);
        solver.pop(1);
    }
}

/// The obligations of one loop nest (or of the whole program), solved together.
struct Stage<'a> {
    enc: &'a Encoding,
    violations: &'a [Bool],
    /// Indices of the nest's obligations.
    mine: &'a [usize],
    budget: Budget,
}

impl Stage<'_> {
    /// Passes over the nest's obligations, one query each (a disjunction of all is far
    /// harder for the solver), until a whole pass finds none violated: parameters only
    /// grow, so an obligation that held earlier in a pass may fail after a later join.
    fn solve(
        &self,
        solver: &Solver,
        tpl: &mut Templates,
        rounds: &mut usize,
        joins: &mut usize,
    ) -> Result<(), String> {
        let mut fix = tpl.fix();
        // The number of joins when each obligation last held: the same query again, under
        // the same parameters, would hold again.
        let mut held: BTreeMap<usize, usize> = BTreeMap::new();
        loop {
            let mut clean = true;
            for &i in self.mine {
                if held.get(&i) == Some(joins) {
                    continue;
                }
                loop {
                    self.budget.check().map_err(|e| e.to_string())?;
                    *rounds += 1;
                    if *joins > MAX_JOINS {
                        return Err(format!(
                            "no inductive invariant after {MAX_JOINS} parameter changes"
                        ));
                    }
                    let Some(model) = violating_model(solver, &fix, &self.violations[i], *rounds)?
                    else {
                        held.insert(i, *joins);
                        break;
                    };
                    clean = false;
                    *joins += 1;
                    let nest = self.enc.obligations[i].nest;
                    join_model(self.enc, tpl, (self.violations, nest), &model, *rounds)?;
                    fix = tpl.fix();
                }
            }
            if clean {
                return Ok(());
            }
        }
    }

    /// Narrowing: sets every widened numeric row of these obligations to the bounds of the
    /// values actually joined into it (samples, so often short of the true bound), then,
    /// while a model violates the obligation of a narrowed row, moves that row out to the
    /// extreme value a run gives it (binary search; only when `regrow`, since each search
    /// costs dozens of queries), or after a few such moves puts back its old parameter,
    /// Houdini-style, until none is violated. Narrowing a row only strengthens what the
    /// others assume, so a violated obligation is always one of a narrowed row. Returns
    /// whether any row stayed narrowed.
    fn narrow(
        &self,
        solver: &Solver,
        tpl: &mut Templates,
        rounds: &mut usize,
        regrow: bool,
    ) -> Result<bool, String> {
        let obligations = &self.enc.obligations;
        let rows: BTreeSet<usize> = self.mine.iter().map(|i| obligations[*i].row).collect();
        let mut old = BTreeMap::new();
        for (r, p) in tpl.narrowings() {
            if rows.contains(&r) {
                old.insert(r, std::mem::replace(&mut tpl.params[r], p));
            }
        }
        if debugging() {
            for r in old.keys() {
                eprintln!("narrowing {} to {}", tpl.rows[*r].what, tpl.show(*r));
            }
        }
        let mut regrown: BTreeMap<usize, usize> = BTreeMap::new();
        let kept = self.houdini(
            solver,
            tpl,
            rounds,
            &mut old,
            |old, row| old.contains_key(&row),
            |old, tpl, (model, fix, failed), rounds| {
                if failed.is_empty() {
                    // Not expected (see above); give every row back its old parameter.
                    for (r, p) in std::mem::take(old) {
                        tpl.params[r] = p;
                    }
                    return Ok(false);
                }
                for j in failed {
                    let r = obligations[j].row;
                    let Some(previous) = old.get(&r) else {
                        continue;
                    };
                    let tries = regrown.entry(r).or_insert(0);
                    let far = match regrow && *tries < MAX_REGROWTHS {
                        true => self.extreme(solver, (fix, j), tpl, previous, model, rounds)?,
                        false => None,
                    };
                    *tries += 1;
                    if debugging() {
                        eprintln!("narrowing {}: {far:?}", tpl.rows[r].what);
                    }
                    match far {
                        Some(n) => tpl.extend_to(r, n),
                        None => {
                            if let Some(p) = old.remove(&r) {
                                tpl.params[r] = p;
                            }
                        }
                    }
                }
                Ok(true)
            },
        )?;
        Ok(kept && !old.is_empty())
    }

    /// Descent (Houdini over tighter bounds): when the invariant is inductive but does not
    /// exclude an error, its numeric rows may still be weaker than the least fixed point (a
    /// value joined while another row was transiently widened stays in the hull narrowing
    /// returns to). Every side of every numeric row moves in to its [`Templates::tighter`]
    /// candidates together; while a model violates the obligation of a moved row, each side
    /// it leaves goes to its next candidate or back to its old bound. Moving a side in only
    /// strengthens what the other obligations assume, so the sides that stay moved form an
    /// inductive invariant again. Returns whether any side stayed moved.
    fn descend(
        &self,
        solver: &Solver,
        tpl: &mut Templates,
        rounds: &mut usize,
    ) -> Result<bool, String> {
        let obligations = &self.enc.obligations;
        let rows: BTreeSet<usize> = self.mine.iter().map(|i| obligations[*i].row).collect();
        // For each moved side: its old bound, its candidates and the one it is at.
        let mut moved: Moved = BTreeMap::new();
        for r in rows {
            for side in [Side::Lower, Side::Upper] {
                let (Some(old), candidates) = (tpl.bound(r, side), tpl.tighter(r, side)) else {
                    continue;
                };
                if let Some(first) = candidates.first() {
                    tpl.set_bound(r, side, *first);
                    moved.insert((r, side), (old, candidates, 0));
                }
            }
        }
        let is_moved = |moved: &Moved, row: usize| moved.keys().any(|(r, _)| *r == row);
        self.houdini(
            solver,
            tpl,
            rounds,
            &mut moved,
            is_moved,
            |moved, tpl, (model, _, failed), _| {
                for j in failed {
                    let o = &obligations[j];
                    let sides = match tpl.outside(o.row, bits_of(model, &o.value)?) {
                        Some(true) => vec![Side::Upper],
                        Some(false) => vec![Side::Lower],
                        None => vec![Side::Lower, Side::Upper],
                    };
                    for side in sides {
                        back_off(tpl, moved, (o.row, side));
                    }
                }
                Ok(true)
            },
        )?;
        if debugging() {
            for (r, side) in moved.keys() {
                eprintln!("descent: {} ({side:?})", tpl.show(*r));
            }
        }
        Ok(!moved.is_empty())
    }

    /// Houdini passes over the obligations of the rows that `state` has moved in (only they
    /// can fail: moving a row in strengthens what the others assume), until one pass finds
    /// none violated. Each violating model goes to `back_off` with the parameters' constraints
    /// and the moved rows' obligations it violates, to move some of those rows back out;
    /// `back_off` returning false ends the passes at once (and so does this, with false).
    #[allow(clippy::type_complexity)]
    fn houdini<S>(
        &self,
        solver: &Solver,
        tpl: &mut Templates,
        rounds: &mut usize,
        state: &mut S,
        moved: impl Fn(&S, usize) -> bool,
        mut back_off: impl FnMut(
            &mut S,
            &mut Templates,
            (&Model, &[Bool], Vec<usize>),
            &mut usize,
        ) -> Result<bool, String>,
    ) -> Result<bool, String> {
        let obligations = &self.enc.obligations;
        let mut clean = false;
        while !clean {
            clean = true;
            let mut fix = tpl.fix();
            for &i in self.mine {
                if !moved(state, obligations[i].row) {
                    continue;
                }
                self.budget.check().map_err(|e| e.to_string())?;
                *rounds += 1;
                let Some(model) = violating_model(solver, &fix, &self.violations[i], *rounds)?
                else {
                    continue;
                };
                clean = false;
                let failed: Vec<usize> = (0..obligations.len())
                    .filter(|j| moved(state, obligations[*j].row))
                    .filter(|j| {
                        let w = &self.violations[*j];
                        model.eval(w, true).and_then(|b| b.as_bool()) == Some(true)
                    })
                    .collect();
                if !back_off(state, tpl, (&model, &fix, failed), rounds)? {
                    return Ok(false);
                }
                fix = tpl.fix();
            }
        }
        Ok(true)
    }

    /// The extreme value a run violating obligation `j` under `fix` gives its numeric row, in
    /// the direction in which `model`'s value leaves the row, found by binary search between
    /// that value and the bound of the row's `previous` (inductive) parameter; `None` when it
    /// is that bound (nothing to gain over the previous parameter) or the row is not numeric.
    fn extreme(
        &self,
        solver: &Solver,
        (fix, j): (&[Bool], usize),
        tpl: &Templates,
        previous: &Param,
        model: &Model,
        rounds: &mut usize,
    ) -> Result<Option<i128>, String> {
        let o = &self.enc.obligations[j];
        let bits = bits_of(model, &o.value)?;
        let (Some(up), Some(seen)) = (tpl.outside(o.row, bits), tpl.number(o.row, bits)) else {
            return Ok(None);
        };
        let Param::Interval { lo, hi, .. } = previous else {
            return Ok(None);
        };
        let bound = if up { *hi } else { *lo };
        // `reached` is attained by some run; none goes beyond `limit`.
        let (mut reached, mut limit) = (seen, bound);
        // A widened bound is often the type's limit, and reached: one query says so.
        *rounds += 1;
        let at_limit = Bool::and(&[
            self.violations[j].clone(),
            tpl.reaches(o.row, &o.value, limit, up),
        ]);
        if violating_model(solver, fix, &at_limit, *rounds)?.is_some() {
            return Ok(None);
        }
        limit = if up { limit - 1 } else { limit + 1 };
        while (up && reached < limit) || (!up && reached > limit) {
            self.budget.check().map_err(|e| e.to_string())?;
            *rounds += 1;
            let mid = match up {
                true => reached + (limit - reached + 1) / 2,
                false => reached - (reached - limit + 1) / 2,
            };
            let goal = Bool::and(&[
                self.violations[j].clone(),
                tpl.reaches(o.row, &o.value, mid, up),
            ]);
            match violating_model(solver, fix, &goal, *rounds)? {
                Some(m) => reached = tpl.number(o.row, bits_of(&m, &o.value)?).unwrap_or(mid),
                None if up => limit = mid - 1,
                None => limit = mid + 1,
            }
        }
        let gain = if up { reached < bound } else { reached > bound };
        Ok(gain.then_some(reached))
    }
}

/// The sides a descent moved in: for each, its old bound, its candidates and the one it is at.
type Moved = BTreeMap<(usize, Side), (i128, Vec<i128>, usize)>;

/// Moves `side` of a row of a descent to its next candidate, or back to its old bound when it
/// has none left.
fn back_off(tpl: &mut Templates, moved: &mut Moved, (r, side): (usize, Side)) {
    let Some((old, candidates, at)) = moved.get_mut(&(r, side)) else {
        return;
    };
    *at += 1;
    match candidates.get(*at) {
        Some(n) => tpl.set_bound(r, side, *n),
        None => {
            tpl.set_bound(r, side, *old);
            moved.remove(&(r, side));
        }
    }
}

/// A model of the program under the parameters `fix` that satisfies `violation`, if any.
fn violating_model(
    solver: &Solver,
    fix: &[Bool],
    violation: &Bool,
    round: usize,
) -> Result<Option<Model>, String> {
    solver.push();
    for f in fix {
        solver.assert(f);
    }
    solver.assert(violation);
    let asked = std::time::Instant::now();
    let r = solver.check();
    if debugging() {
        eprintln!(
            "round {round}: {r:?} in {:.2} s",
            asked.elapsed().as_secs_f64()
        );
    }
    let out = match r {
        SatResult::Unsat => Ok(None),
        SatResult::Unknown => Err(unknown(solver)),
        SatResult::Sat => (solver.get_model())
            .map(Some)
            .ok_or_else(|| "the solver gave no model".to_string()),
    };
    solver.pop(1);
    out
}

/// Joins the values of `model` into every row of loop nest `nest` whose obligation it
/// violates.
fn join_model(
    enc: &Encoding,
    tpl: &mut Templates,
    (violations, nest): (&[Bool], usize),
    model: &Model,
    round: usize,
) -> Result<(), String> {
    if let Some(r) = std::env::var_os("SHAPECHECK_DEBUG_MODEL")
        && r.to_string_lossy() == round.to_string()
    {
        eprintln!("{model}");
    }
    let debug = debugging();
    let mut changed = false;
    let mut grown = BTreeSet::new();
    for (o, v) in enc.obligations.iter().zip(violations) {
        if o.nest != nest {
            continue;
        }
        if model.eval(v, true).and_then(|b| b.as_bool()) != Some(true) {
            continue;
        }
        let value = bits_of(model, &o.value)?;
        if debug {
            eprintln!(
                "round {round}: {} takes {value:#x} {}",
                tpl.rows[o.row].what, o.note
            );
            if std::env::var_os("SHAPECHECK_DEBUG_TERMS").is_some() {
                eprintln!("  value = {}", o.value);
            }
        }
        if tpl.join(o.row, value) {
            grown.insert(o.row);
        } else if tpl.admit_dangling(o.row, value) {
            // The value was in the row's set and still violates it: an address of an object
            // that does not exist there, kept as a dangling pointer.
            grown.insert(o.row);
        } else if !grown.contains(&o.row) {
            if debug {
                eprintln!("round {round}: {} set to top", tpl.rows[o.row].what);
            }
            tpl.set_top(o.row);
        }
        changed = true;
    }
    match changed {
        true => Ok(()),
        false => Err("the synthesis made no progress (a bug)".into()),
    }
}

/// The value `model` gives the bit-vector term `x`.
fn bits_of(model: &Model, x: &z3::ast::BV) -> Result<u64, String> {
    (model.eval(x, true).and_then(|v| v.as_u64()))
        .ok_or_else(|| "a value wider than 64 bits".into())
}

/// The first of `guards` that some run allows under the invariant, if any.
fn first_reachable(
    solver: &Solver,
    fix: &[Bool],
    guards: &[Bool],
) -> Result<Option<usize>, String> {
    solver.push();
    for f in fix {
        solver.assert(f);
    }
    solver.assert(Bool::or(guards));
    let found = match solver.check() {
        SatResult::Unsat => Ok(None),
        SatResult::Unknown => Err(unknown(solver)),
        SatResult::Sat => {
            let model = solver.get_model().ok_or("the solver gave no model")?;
            let hit = |g: &Bool| model.eval(g, true).and_then(|b| b.as_bool()) == Some(true);
            Ok(Some(guards.iter().position(hit).unwrap_or(0)))
        }
    };
    solver.pop(1);
    found
}

/// The independent check of a TRUE: a fresh solver, the program formula, the parameters as
/// constants, and the questions whether any obligation fails (one query each) or any error
/// call or undefined behaviour is reached.
fn recheck(
    enc: &Encoding,
    tpl: &Templates,
    violations: &[Bool],
    bad: &Bool,
    budget: Budget,
) -> Result<(), String> {
    let fresh = Solver::new();
    set_timeout(&fresh, budget);
    for b in &enc.background {
        fresh.assert(b);
    }
    for f in tpl.fix() {
        fresh.assert(&f);
    }
    for q in violations.iter().chain([bad]) {
        budget.check().map_err(|e| e.to_string())?;
        fresh.push();
        fresh.assert(q);
        let r = fresh.check();
        fresh.pop(1);
        match r {
            SatResult::Unsat => {}
            SatResult::Sat => {
                return Err("the invariant failed its re-check (a bug in the synthesis)".into());
            }
            SatResult::Unknown => return Err(format!("the re-check: {}", unknown(&fresh))),
        }
    }
    Ok(())
}

/// Whether SHAPECHECK_DEBUG_TEMPLATE asks for the synthesis's progress on standard error.
pub fn debugging() -> bool {
    std::env::var_os("SHAPECHECK_DEBUG_TEMPLATE").is_some()
}

/// The solver stops at the engine's deadline (or the run's, if nearer).
fn set_timeout(solver: &Solver, budget: Budget) {
    let own = budget
        .remaining()
        .map(|r| r.as_millis().min(u128::from(u32::MAX)) as u32);
    let ms = crate::engine::budget::solver_timeout_ms(own.unwrap_or(u32::MAX));
    if own.is_some() || crate::engine::budget::get().deadline.is_some() {
        let mut params = z3::Params::new();
        params.set_u32("timeout", ms.max(1));
        solver.set_params(&params);
    }
}

fn unknown(solver: &Solver) -> String {
    format!(
        "the solver gave up ({})",
        solver.get_reason_unknown().unwrap_or_default()
    )
}
