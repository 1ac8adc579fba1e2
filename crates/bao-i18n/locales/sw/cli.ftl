# Ujumbe wa bao-cli wenyewe: makosa, muhtasari, maendeleo.

## bao check
count-files = { $count ->
    [one] faili { $count }
   *[other] mafaili { $count }
}
count-games = { $count ->
    [one] mchezo { $count }
   *[other] michezo { $count }
}
count-plies = { $count ->
    [one] hatua { $count }
   *[other] hatua { $count }
}
count-repairs = { $count ->
    [one] rekebisho { $count }
   *[other] marekebisho { $count }
}
check-summary = bao check: { $files }, { $games }, { $plies }: { $errors }, { $warnings }
check-summary-unreadable = bao check: { $files }, { $games }, { $plies }: { $errors }, { $warnings }, { $unreadable } hayasomeki
check-cannot-read = haiwezekani kusoma { $name }: { $error }
check-fixed = bao check: { $name }: mchezo { $game }, { $what }
check-fixed-dry = bao check: { $name }: mchezo { $game }, { $what } (majaribio tu)
fix-summary-applied = bao check: { $repairs } yamefanywa; yaliyobaki: { $errors }, { $warnings }
fix-summary-dry = bao check: { $repairs } yamepatikana (majaribio tu); yatakayobaki baada yake: { $errors }, { $warnings }
fix-summary-dry-none = bao check: { $repairs } yamepatikana (majaribio tu); yaliyobaki: { $errors }, { $warnings }

## bao legal
legal-over-won = bao legal: mchezo umeisha: { $side } ameshinda ({ $reason })
legal-over-draw = bao legal: mchezo umeisha: sare ({ $reason })
legal-no-move = bao legal: { $side } hana hatua halali

## bao lsp (kihariri)
lsp-written-under = { $description }; { $mv } kutoka upande wa anayecheza, huandikwa { $written } chini ya [Directions "{ $directions }"]
