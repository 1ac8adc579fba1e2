# The checker's diagnostics (bao-validate): messages, labels and help.
# Bao's words are arguments: $namua, $mtaji, $nyumba, $takasa, $takasia (Kete: nemo, mtaji,
# kuu, takata, hizi zetu).

## The summary of a checked file.
summary-errors = { $count ->
    [one] { $count } error
   *[other] { $count } errors
}
summary-warnings = { $count ->
    [one] { $count } warning
   *[other] { $count } warnings
}

## The sides in prose.
side-south = South
side-north = North

## The rule behind a code, in one sentence (help's first line).
rule-capture-mandatory = Captures are compulsory: a { $takasa } is legal only when no capture is.
rule-empty-pit = A move starts from an own pit holding seeds: in { $namua } an occupied front pit, in { $mtaji } a pit of 2 seeds or more.
rule-singleton = A { $mtaji } move starts by lifting a pit of 2 seeds or more; a single seed never starts a move.
rule-not-own-pit = The players alternate and each sows only his own pits; { $side } is to move here.
rule-wrong-row = In { $namua } the seed from the hand goes into an occupied pit of the mover's front row.
rule-namua-placement = In a { $namua } { $takasa } the seed goes into a front pit of 2 or more while one exists; with a functional { $nyumba }, into any occupied front pit except the { $nyumba }.
rule-not-a-capture = A move captures only when its first lap ends in an own occupied front pit facing seeds; any other move is a { $takasa }, written with `*`.
rule-takasia = A pit made { $takasia } may not start a move on its owner's next turn.
rule-sixteen-seeds = A first lap of { $threshold } seeds or more never captures; such a pit can only start a { $takasa }.
rule-front-row-guard = A { $takasa } may never leave the mover's front row empty, not even for a moment.
rule-first-takata-from-kuu = While the { $nyumba } stands, a { $mtaji } { $takasa } must start from the { $nyumba }.
rule-capture-priority = The player who made a pit { $takasia } must capture it on his next move when a capture can.
rule-kichwa-not-choosable = Seeds captured from a kimbi enter at the kichwa on that side; only the first capture of a { $namua } move from a central pit lets the player choose.
rule-ambiguous-move = The sign may be left out only when a single direction is legal.
rule-safari-without-house = `+` (safari) is written only on a { $namua } capture whose lap stops in the functional { $nyumba } and goes on through it.
rule-back-row-takasa = A { $mtaji } { $takasa } may start from the back row only when no front pit holds 2 seeds or more.
rule-never-ending = A move that never ends may not be played.
rule-game-over = Once the game is over, no move may be played.
rule-not-legal = Only the legal moves of the position may be played.
rule-lap-mismatch = When an annotation lists lap ends, they must be exactly the move's lap ends.
rule-capture-mismatch = When an annotation lists captures, they must be exactly the move's captures.
rule-false-takasia-claim = `**` marks a { $mtaji } { $takasa } after which the opponent has a { $takasia } pit.
rule-false-win-claim = `#` marks a move that wins the game.

## The short label of a diagnostic's primary span.
label-capture-mandatory = a { $takasa } while a capture is possible
label-empty-pit = this pit is empty
label-singleton = this pit holds a single seed
label-not-own-pit = not the mover's pit
label-wrong-row = a back-row pit in { $namua }
label-namua-placement = the seed may not go here in this { $takasa }
label-not-a-capture = this move does not capture
label-takasia = this pit is { $takasia }
label-sixteen-seeds = too many seeds to capture
label-front-row-guard = this empties the mover's front row
label-first-takata-from-kuu = not from the { $nyumba }
label-capture-priority = does not capture the { $takasia } pit
label-kichwa-not-choosable = the captured seeds enter at the other kichwa
label-ambiguous-move = both directions are legal
label-safari-without-house = never stops in the functional { $nyumba }
label-back-row-takasa = a back-row pit while a front pit can move
label-never-ending = this move never ends
label-game-over = the game is already over
label-illegal = illegal here

## What a move does, in a few words.
effect-captures-nothing = captures nothing
effect-captures = captures { $pits }
effect-never-ends = and never ends (it repeats every { $period ->
    [one] { $period } lap
   *[other] { $period } laps
} from the end of lap { $start })
effect-wins = and wins
# A list: `a`, `a and b`, `a, b and c` ($init is `a, b`).
list-and = { $init } and { $last }
describe-captures = captures { $shown }
describe-captures-more = captures { $shown } and { $more } more
describe-safari = safari
describe-house-stop = stops in the { $nyumba }
describe-takasia = { $takasia } { $pit }
describe-laps = { $laps ->
    [one] { $laps } lap
   *[other] { $laps } laps
}
describe-wins = wins ({ $reason })
describe-loses = loses ({ $reason })
describe-draws = draws ({ $reason })

## Why a move is illegal, in one sentence.
reason-game-over = the game is over ({ $outcome })
reason-not-own-pit = { $pit } is not { $side }'s pit: a player sows only his own pits
reason-namua-back-row = in { $namua } the reserve seed goes into an occupied front-row pit, never the back row
reason-namua-empty-pit = { $pit } is empty: in { $namua } the reserve seed goes into an occupied front-row pit
reason-too-few-seeds = { $pit } holds { $count ->
    [one] { $count } seed
   *[other] { $count } seeds
}: a { $mtaji } move starts from a pit with 2 seeds or more
reason-capture-mandatory = captures are compulsory; the captures here are { $captures }
reason-never-ending = the move never ends (its sowing repeats every { $period ->
    [one] { $period } lap
   *[other] { $period } laps
} from the end of lap { $start })
reason-front-row-guard = this { $takasa } would leave { $side }'s front row empty; a player's front row may never be emptied
reason-safari-without-house = safari (+) is claimed, but { $plain } never stops in the functional { $nyumba }
reason-kichwa-not-choosable = a capture from a kimbi enters at the kichwa on its own side; write { $mv }
reason-too-many-seeds = { $pit } holds { $count } seeds: a first lap of { $threshold } or more never captures
reason-no-capture-exists = no capture is possible here, so every move is a { $takasa }
reason-no-capture-exists-write = no capture is possible here, so every move is a { $takasa }; write { $mv }
reason-not-a-capture = this move does not capture (its first lap does not end in a pit facing seeds); the captures here are { $captures }
reason-capture-priority = { $pit } is reserved by { $takasia }: this move must capture it; the captures that do are { $captures }
reason-takasia-pit = { $pit } is { $takasia }: no move may start from it now
reason-namua-house-placement = the functional { $nyumba } takes the reserve seed of a { $takasa } only when it is the only occupied front pit
reason-namua-placement = without a functional { $nyumba } the reserve seed goes into a pit holding 2 seeds or more while one exists
reason-first-takata-from-kuu = while the { $nyumba } stands, a { $mtaji } { $takasa } must start from it
reason-back-row-takasa = a { $takasa } may start from the back row only when no front pit holds 2 seeds or more
reason-other = the move breaks rule { $rule }
reason-not-legal = not a legal move here; the legal moves are { $legal }
reason-ambiguous = ambiguous: { $moves } are all legal; write the sign
illegal-sentence = { $mv } is illegal ({ $rule }): { $why }
illegal-message = { $mv } is illegal: { $why }

## Why a setup is no position.
setup-seed-count = board and hands hold { $found } seeds; a game has exactly { $total }
setup-house = { $side }'s { $nyumba }: { $why }
setup-house-missing = these rules have a { $nyumba }; say functional, dormant or destroyed
setup-house-not-in-rules = these rules have no house powers; the state must be none
setup-house-functional-too-few = functional, but it holds fewer than 6 seeds
setup-house-dormant-too-many = dormant, but it holds 6 seeds or more (that is functional)
setup-house-dormant-kuu = a kuu never holds fewer than 6 seeds (K2): it is functional or destroyed
setup-hand = { $side }'s hand: { $why }
setup-hand-no-reserve = these rules have no reserve; the hand must be 0
setup-hand-more-than-reserve = holds more than the 22 seeds a reserve starts with
setup-hand-other = not allowed by these rules
setup-takasia = { $takasia } pit { $pit }: { $why }
setup-takasia-wrong-side = recorded for the wrong side
setup-takasia-not-in-rules = these rules have no { $takasia }
setup-takasia-back-row = only a front pit can be reserved
setup-takasia-with-reserves = { $takasia } arises only when both reserves are empty
setup-takasia-not-to-move = without capture priority only the side to move can have a reserved pit
setup-takasia-functional-house = a functional { $nyumba } cannot be reserved (T2)
impossible-position = impossible position: { $problems }

## Why a game ended.
end-bao-hamna = a front row emptied
end-no-legal-move = no legal move left
end-own-front-row-empty = own front row emptied
end-never-ending = a never-ending move
outcome-bao-hamna = the loser's front row is empty
outcome-no-legal-move = the loser has no legal move
outcome-own-front-row-empty = the loser emptied his own front row
outcome-never-ending = a never-ending move
outcome-won = { $side } won: { $reason }
outcome-drawn = drawn: { $reason }

## Rule sets that cannot be read.
unknown-preset = unknown rule preset `{ $name }` (known: { $known })
unknown-preset-spec = unknown preset `{ $name }`; the presets are { $known }
rule-option-error = rule option `{ $option }` cannot be `{ $value }`: expected { $expected }
stage-mismatch = stage is { $stage } but { $side }, to move, has { $hand } seeds in hand ({ $namua } while the hand is not empty, else { $mtaji })

## Repairs: the slips a written move may hold.
slip-row-swapped = row A/B swapped
slip-other-row-letter = row letter of the other player
slip-mirrored = South/North numbering mirrored
slip-other-end = numbered from the other end
slip-neighbour = a neighbouring pit
slip-house-mark = `>` is the house mark of some books: safari is written `+`
slip-kichwa-flipped = kichwa side flipped
slip-direction-flipped = direction flipped
slip-missing-takasa = a missing `*`
slip-extra-takasa = an extra `*`
slip-missing-safari = a missing `+`
slip-extra-safari = an extra `+`
slip-plies-swapped = two plies swapped
slip-moves-swapped = two moves of one player swapped
slip-ply-too-many = one ply too many
slip-ply-missing = one ply missing

## Repairs: the sentences that offer them.
repair-replace = did you mean { $mv } ?
repair-as-annotation = , as its annotation says
repair-as-the-annotation = , as the annotation says
repair-swap-next = plies { $ply } and { $with_ply } look swapped: { $mv } here (it { $effect }{ $agrees }), then { $written } after it
repair-swap-later = plies { $ply } and { $with_ply } look swapped: { $mv } here (it { $effect }{ $agrees }), then { $written } two plies later
repair-insert = a ply seems missing before it: after { $mv } (it { $effect }) the written move is legal as { $written }{ $agrees }
repair-delete = ply { $ply } seems one too many (written twice?): without it, the next written move { $mv } is legal here (it { $effect }{ $agrees })
repair-earlier = the slip seems to be at ply { $ply }: { $mv } there, not { $written } ({ $slips }it { $effect }{ $agrees }), makes this move legal
repair-it = it { $effect }
short-swap = plies { $ply } and { $with_ply } swapped
short-insert = { $mv } inserted before it
short-earlier = { $mv } at ply { $ply }
short-delete = ply { $ply } deleted
short-here = { $mv } here
repair-or = (or { $others })
written-plies = { $count ->
    [one] { $count } written ply
   *[other] { $count } written plies
}
continue-next-illegal = ; the next written ply is then illegal
continue-no-further = ; the next { $plies } then replay too (the check looks no further)
continue-rest = ; the rest of the record ({ $plies }) then replays
continue-only-next = ; then only the next written ply replays, the one after is illegal
continue-only = ; then only the next { $plies } replay, the one after is illegal
assume-no-reading = --assume-fixes stops this line here: no legal move here is a likely reading of what is written.
assume-earlier = --assume-fixes assumes { $mv } at ply { $ply } and goes on from there.
assume-repair = --assume-fixes assumes { $repair } and goes on.
assume-earlier-tie = --assume-fixes stops this line here: a repair of an earlier ply is as likely as one of this ply ({ $repairs }), so which ply holds the slip is not known.
assume-tie = --assume-fixes stops this line here: the likeliest repairs are equally likely ({ $repairs }).
assume-unlikely = --assume-fixes stops this line here: its likeliest repair ({ $repair }) is not likely enough to assume.
assume-second-swap = --assume-fixes stops this line here: its best repair is a second swap while one is still pending.
assume-not-assumed = --assume-fixes stops this line here: its best repair ({ $repair }) is not assumed.
as-likely = As likely: { $repair }
label-slip-here = the slip seems to be here: { $mv }
label-or-slip-here = or the slip is here: { $mv }

## The diagnostics of a game's tags and plies (bao-validate's moves.rs).
undecided = the lap budget ran out at this move (a move ran { $laps } laps undecided)
undecided-label = not decided within the lap budget
undecided-help = Checking this move (its legality, or whether the game goes on after it) needed a move that was still going when `--lap-budget` stopped it: it may never end (G11) or end after many laps. This move and the rest of the game are not checked; run `bao check` without `--lap-budget` for the exact answer.
unknown-rules = unknown rule preset `{ $preset }`
unknown-rules-label = no preset has this name
unknown-rules-help = The presets are { $known }; the game's moves are not checked.
bad-override = rule override `{ $part }` cannot be applied
bad-override-help-ruleset = Overrides are written `name=value` after the preset, as in [RuleSet "kiswahili mtaji_takasa_house=relay"]; the game's moves are not checked.
bad-override-help-rules = Overrides are written `name=value`, separated by spaces, as in [Rules "mtaji_takasa_house=relay"]; the game's moves are not checked.
invalid-position = the Position tag is no valid position ({ $count ->
    [one] { $count } problem
   *[other] { $count } problems
})
invalid-position-label = not a position of this rule set
these-rules = these rules
invalid-position-help = A position holds 64 seeds, hands of at most 22, houses that match their seeds and a takasia only where it can exist; here: { $reasons }. The game's moves are not checked. The start position of { $whose } is { $start }
never-ending-intent = If the never-ending move is the record's point, say what playing it does: [Rules "endless_move=draw"] (the game is drawn) or [Rules "endless_move=mover_loses"] (the mover loses). A never-ending move written last is never repaired by --fix.
convention-note = The whole game replays cleanly when its signs are read with [Directions "{ $other }"]: the record seems to follow that convention.
rules-note = The whole game replays cleanly under [RuleSet "{ $other }"]: the record seems to be of that rule set.
no-such-pit = `{ $pit }` names no pit
no-such-pit-label = no such pit
after-end = the game is over ({ $outcome }), but the record goes on with { $token }
after-end-label = a move after the end of the game
game-ended-here = the game ended with this move
after-end-help = { $rule } Move the result here, or check the moves before it.
legal-captures-here = The legal captures here: { $moves }.
legal-moves-here = The legal moves here: { $moves }.
false-takasia = { $token } claims a { $takasia } (`**`), but it creates none
false-takasia-label = no { $takasia } after this move
false-takasia-help = { $rule } Write { $mv } without the second `*`.
false-win = { $token } claims to win (`#`), but the game goes on
false-win-label = this move does not win
false-win-help = { $rule } After { $mv } the opponent still has seeds in his front row and a legal move.
mismatch-written = Written { $written }; { $mv } gives { $actual }.
capture-mismatch = the captures written for { $token } are not the move's: written { $written }, actual { $actual }
lap-mismatch = the lap ends written for { $token } are not the move's: written { $written }, actual { $actual }
capture-mismatch-label = captures do not match
lap-mismatch-label = lap ends do not match
move-effect = { $mv } { $effect }
capture-available = after this move a capture is available
made-takasia = this { $takasa } made the pit { $takasia }
made-pit-takasia = this { $takasa } made { $pit } { $takasia }

## Results, terminations and matches (bao-validate's record.rs).
result-tags-disagree = the Result tag says { $tag }, the movetext ends with { $token }
label-movetext-result = the movetext's result
label-result-tag = the Result tag
result-tags-help = The Result tag and the result at the end of the movetext must agree.
result-mismatch = the record says { $written }, but the game ended { $expected } ({ $outcome })
result-mismatch-label = should be { $expected }
result-mismatch-help = The result must be the game's end: { $outcome }. Write { $expected }.
ends-early = the record ends with { $written }, but the game goes on
ends-early-label = the game has not ended here
ends-early-help = A game ends only by an empty front row or no legal move (E1, E2). If a player resigned or lost on time, say so with a Termination tag such as [Termination "resignation"]; otherwise the record is missing moves.
termination-not-ended = the game has not ended by the rules
termination-otherwise = the game ended otherwise ({ $outcome }; reason { $reason })
termination-by-rules = the game ended by the rules ({ $outcome })
termination-mismatch = Termination says `{ $termination }`, but { $problem }
termination-mismatch-label = does not match the game's end
termination-mismatch-help = Termination is `normal`, `bao_hamna`, `no_legal_move`, `own_front_row_empty` or `never_ending` for a game the rules ended, and `resignation`, `time_forfeit`, `agreement`, `abandoned` or `adjudication` for one they did not.
match-problem = match `{ $name }`: { $why }
match-label = here
match-help = A match is best of three (E3): games 1, 2 and 3 in order, between the same two players, ending when one has won two.
match-help-number = A match is best of three (E3): games 1, 2 and 3 in order, between the same two players, ending when one has won two. Number the games 1, 2, 3 in the order they were played.
match-too-many = game { $game } is more than a best-of-three match has
match-wrong-number = this is game { $expected } of the match in the file, but its Game tag says { $game }
match-number-not-a-number = the Game tag is not a number
match-no-number = game { $expected } of the match has no Game tag
match-other-players = the players are { $a } and { $b }, not { $c } and { $d }
match-already-won = { $player } had already won two games

## Move numbers (bao-validate's numbers.rs).
move-number-mismatch = the move number `{ $written }` does not fit its ply: ply { $ply } is { $side }'s ply of move { $number }
move-number-label = this is `{ $right }`
move-number-help = `N.` stands before South's ply of move N and `N...` before North's, counted from move 1 at the game's start (after a `Position` tag, from the number of the first move). Write `{ $right }` here.

## The summary line of a checked file, and a diagnostic that depends on an assumed repair.
summary = { $name }: { $errors }, { $warnings }
assuming = (assuming { $mv } at ply { $ply })

## What `bao check --fix` did (bao-validate's fix.rs).
fixed-number = ply { $ply }: move number { $old } became { $new }
fixed-result = result { $old } became { $new }, the board's
fixed-replace = ply { $ply }: { $old } became { $new }
fixed-swap = plies { $ply } and { $with_ply }: { $a } and { $b } swapped
fixed-delete = ply { $ply }: { $old } deleted
fixed-insert = ply { $ply }: { $new } inserted
