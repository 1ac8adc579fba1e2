# bao-cli's own messages: errors, summaries, progress lines.

## bao check
count-files = { $count ->
    [one] { $count } file
   *[other] { $count } files
}
count-games = { $count ->
    [one] { $count } game
   *[other] { $count } games
}
count-plies = { $count ->
    [one] { $count } ply
   *[other] { $count } plies
}
count-repairs = { $count ->
    [one] { $count } repair
   *[other] { $count } repairs
}
check-summary = bao check: { $files }, { $games }, { $plies }: { $errors }, { $warnings }
check-summary-unreadable = bao check: { $files }, { $games }, { $plies }: { $errors }, { $warnings }, { $unreadable } unreadable
check-cannot-read = cannot read { $name }: { $error }
check-fixed = bao check: { $name }: game { $game }, { $what }
check-fixed-dry = bao check: { $name }: game { $game }, { $what } (dry run)
fix-summary-applied = bao check: { $repairs } applied; left: { $errors }, { $warnings }
fix-summary-dry = bao check: { $repairs } found (dry run); left after them: { $errors }, { $warnings }
fix-summary-dry-none = bao check: { $repairs } found (dry run); left: { $errors }, { $warnings }

## bao legal
legal-over-won = bao legal: the game is over: { $side } won ({ $reason })
legal-over-draw = bao legal: the game is over: a draw ({ $reason })
legal-no-move = bao legal: { $side } has no legal move

## bao lsp (the editor)
lsp-written-under = { $description }; { $mv } from the mover's seat, written { $written } under [Directions "{ $directions }"]
