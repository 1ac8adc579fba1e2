# Ujumbe wa mkaguzi (bao-validate): ujumbe, lebo na msaada.
# Maneno ya Bao ni hoja: $namua, $mtaji, $nyumba, $takasa, $takasia (Kete: nemo, mtaji,
# kuu, takata, hizi zetu).

## Muhtasari wa faili lililokaguliwa.
summary-errors = { $count ->
    [one] kosa { $count }
   *[other] makosa { $count }
}
summary-warnings = { $count ->
    [one] onyo { $count }
   *[other] maonyo { $count }
}

## Pande katika sentensi.
side-south = Kusini
side-north = Kaskazini

## Sheria ya kila msimbo, kwa sentensi moja (mstari wa kwanza wa msaada).
rule-capture-mandatory = Kula ni lazima: { $takasa } ni halali tu pale ambapo hakuna hatua ya kula.
rule-empty-pit = Hatua huanza kwenye shimo lako lenye kete: katika { $namua } shimo la safu ya mbele lenye kete, katika { $mtaji } shimo lenye kete 2 au zaidi.
rule-singleton = Hatua ya { $mtaji } huanza kwa kuchukua shimo lenye kete 2 au zaidi; kete moja peke yake haianzishi hatua.
rule-not-own-pit = Wachezaji hucheza kwa zamu na kila mmoja hupanda mashimo yake tu; hapa ni zamu ya { $side }.
rule-wrong-row = Katika { $namua } kete ya mkononi huwekwa kwenye shimo lenye kete la safu ya mbele ya anayecheza.
rule-namua-placement = Katika { $takasa } ya { $namua } kete huwekwa kwenye shimo la mbele lenye kete 2 au zaidi, kama lipo; { $nyumba } ikiwa na nguvu, kwenye shimo lolote la mbele lenye kete isipokuwa { $nyumba }.
rule-not-a-capture = Hatua hula tu pale mzunguko wake wa kwanza unapoishia kwenye shimo lako la mbele lenye kete linaloelekea kete za mpinzani; hatua nyingine yoyote ni { $takasa }, huandikwa kwa `*`.
rule-takasia = Shimo lililofanywa { $takasia } haliwezi kuanzisha hatua katika zamu inayofuata ya mwenyewe.
rule-sixteen-seeds = Mzunguko wa kwanza wa kete { $threshold } au zaidi haulii kamwe; shimo kama hilo linaweza kuanzisha { $takasa } tu.
rule-front-row-guard = { $takasa } haiwezi kamwe kuacha safu ya mbele ya anayecheza bila kete, hata kwa muda mfupi.
rule-first-takata-from-kuu = Wakati { $nyumba } bado ipo, { $takasa } ya { $mtaji } lazima ianzie kwenye { $nyumba }.
rule-capture-priority = Mchezaji aliyefanya shimo kuwa { $takasia } lazima alile katika hatua yake inayofuata, kama anaweza kula.
rule-kichwa-not-choosable = Kete zinazoliwa kutoka kimbi huingia kwenye kichwa cha upande huo; ni kula kwa kwanza tu kwa hatua ya { $namua } kutoka shimo la katikati kunakomruhusu mchezaji kuchagua.
rule-ambiguous-move = Alama ya mwelekeo inaweza kuachwa tu pale ambapo mwelekeo mmoja tu ni halali.
rule-safari-without-house = `+` (safari) huandikwa tu kwenye hatua ya kula ya { $namua } ambayo mzunguko wake unasimama kwenye { $nyumba } yenye nguvu na kuendelea kupitia hiyo.
rule-back-row-takasa = { $takasa } ya { $mtaji } inaweza kuanzia safu ya nyuma tu pale ambapo hakuna shimo la mbele lenye kete 2 au zaidi.
rule-never-ending = Hatua isiyoisha haiwezi kuchezwa.
rule-game-over = Mchezo ukishaisha, hakuna hatua inayoweza kuchezwa.
rule-not-legal = Ni hatua halali za nafasi hii tu zinazoweza kuchezwa.
rule-lap-mismatch = Maelezo yanapoorodhesha miisho ya mizunguko, lazima iwe hasa miisho ya mizunguko ya hatua hiyo.
rule-capture-mismatch = Maelezo yanapoorodhesha kete zilizoliwa, lazima ziwe hasa zile ambazo hatua hiyo inakula.
rule-false-takasia-claim = `**` huonyesha { $takasa } ya { $mtaji } ambayo baada yake mpinzani ana shimo la { $takasia }.
rule-false-win-claim = `#` huonyesha hatua inayoshinda mchezo.

## Lebo fupi ya sehemu kuu ya ujumbe.
label-capture-mandatory = { $takasa } wakati kula kunawezekana
label-empty-pit = shimo hili ni tupu
label-singleton = shimo hili lina kete moja tu
label-not-own-pit = si shimo la anayecheza
label-wrong-row = shimo la safu ya nyuma katika { $namua }
label-namua-placement = kete haiwezi kuwekwa hapa katika { $takasa } hii
label-not-a-capture = hatua hii haili
label-takasia = shimo hili ni { $takasia }
label-sixteen-seeds = kete nyingi mno kuweza kula
label-front-row-guard = hii inaacha safu ya mbele ya anayecheza tupu
label-first-takata-from-kuu = haianzii kwenye { $nyumba }
label-capture-priority = haili shimo la { $takasia }
label-kichwa-not-choosable = kete zilizoliwa huingia kwenye kichwa kingine
label-ambiguous-move = mielekeo yote miwili ni halali
label-safari-without-house = haisimami kamwe kwenye { $nyumba } yenye nguvu
label-back-row-takasa = shimo la safu ya nyuma wakati shimo la mbele linaweza kucheza
label-never-ending = hatua hii haiishi
label-game-over = mchezo umeshaisha
label-illegal = si halali hapa

## Hatua inafanya nini, kwa maneno machache.
effect-captures-nothing = haili chochote
effect-captures = inakula { $pits }
effect-never-ends = na haiishi (inajirudia kila baada ya { $period ->
    [one] mzunguko { $period }
   *[other] mizunguko { $period }
} kuanzia mwisho wa mzunguko wa { $start })
effect-wins = na inashinda
list-and = { $init } na { $last }
describe-captures = inakula { $shown }
describe-captures-more = inakula { $shown } na { $more } zaidi
describe-safari = safari
describe-house-stop = inasimama kwenye { $nyumba }
describe-takasia = { $takasia } { $pit }
describe-laps = { $laps ->
    [one] mzunguko { $laps }
   *[other] mizunguko { $laps }
}
describe-wins = inashinda ({ $reason })
describe-loses = inashindwa ({ $reason })
describe-draws = sare ({ $reason })

## Kwa nini hatua si halali, kwa sentensi moja.
reason-game-over = mchezo umeisha ({ $outcome })
reason-not-own-pit = { $pit } si shimo la { $side }: mchezaji hupanda mashimo yake tu
reason-namua-back-row = katika { $namua } kete ya mkononi huwekwa kwenye shimo lenye kete la safu ya mbele, kamwe si safu ya nyuma
reason-namua-empty-pit = { $pit } ni tupu: katika { $namua } kete ya mkononi huwekwa kwenye shimo lenye kete la safu ya mbele
reason-too-few-seeds = { $pit } lina { $count ->
    [one] kete { $count }
   *[other] kete { $count }
}: hatua ya { $mtaji } huanza kwenye shimo lenye kete 2 au zaidi
reason-capture-mandatory = kula ni lazima; hatua za kula hapa ni { $captures }
reason-never-ending = hatua haiishi (upandaji wake unajirudia kila baada ya { $period ->
    [one] mzunguko { $period }
   *[other] mizunguko { $period }
} kuanzia mwisho wa mzunguko wa { $start })
reason-front-row-guard = { $takasa } hii ingeacha safu ya mbele ya { $side } tupu; safu ya mbele ya mchezaji haiwezi kuachwa tupu kamwe
reason-safari-without-house = safari (+) imeandikwa, lakini { $plain } haisimami kamwe kwenye { $nyumba } yenye nguvu
reason-kichwa-not-choosable = kete zinazoliwa kutoka kimbi huingia kwenye kichwa cha upande wake; andika { $mv }
reason-too-many-seeds = { $pit } lina kete { $count }: mzunguko wa kwanza wa kete { $threshold } au zaidi haulii kamwe
reason-no-capture-exists = hakuna kula kunakowezekana hapa, kwa hiyo kila hatua ni { $takasa }
reason-no-capture-exists-write = hakuna kula kunakowezekana hapa, kwa hiyo kila hatua ni { $takasa }; andika { $mv }
reason-not-a-capture = hatua hii haili (mzunguko wake wa kwanza hauishii kwenye shimo linaloelekea kete); hatua za kula hapa ni { $captures }
reason-capture-priority = { $pit } limezuiwa na { $takasia }: hatua hii lazima ilile; hatua za kula zinazolila ni { $captures }
reason-takasia-pit = { $pit } ni { $takasia }: hakuna hatua inayoweza kuanzia hapo sasa
reason-namua-house-placement = { $nyumba } yenye nguvu hupokea kete ya mkononi ya { $takasa } tu pale ambapo ndilo shimo pekee la mbele lenye kete
reason-namua-placement = bila { $nyumba } yenye nguvu kete ya mkononi huwekwa kwenye shimo lenye kete 2 au zaidi, kama lipo
reason-first-takata-from-kuu = wakati { $nyumba } bado ipo, { $takasa } ya { $mtaji } lazima ianzie hapo
reason-back-row-takasa = { $takasa } inaweza kuanzia safu ya nyuma tu pale ambapo hakuna shimo la mbele lenye kete 2 au zaidi
reason-other = hatua inavunja sheria { $rule }
reason-not-legal = si hatua halali hapa; hatua halali ni { $legal }
reason-ambiguous = haijulikani ni ipi: { $moves } zote ni halali; andika alama ya mwelekeo
illegal-sentence = { $mv } si halali ({ $rule }): { $why }
illegal-message = { $mv } si halali: { $why }

## Kwa nini mpangilio si nafasi ya mchezo.
setup-seed-count = ubao na mikono vina kete { $found }; mchezo una kete { $total } hasa
setup-house = { $nyumba } ya { $side }: { $why }
setup-house-missing = sheria hizi zina { $nyumba }; sema functional, dormant au destroyed
setup-house-not-in-rules = sheria hizi hazina nguvu za nyumba; hali lazima iwe none
setup-house-functional-too-few = ina nguvu, lakini ina kete chini ya 6
setup-house-dormant-too-many = imelala, lakini ina kete 6 au zaidi (hiyo ni nyumba yenye nguvu)
setup-house-dormant-kuu = kuu haiwi kamwe na kete chini ya 6 (K2): ina nguvu au imevunjwa
setup-hand = mkono wa { $side }: { $why }
setup-hand-no-reserve = sheria hizi hazina kete za mkononi; mkono lazima uwe 0
setup-hand-more-than-reserve = una kete zaidi ya 22 ambazo mkono huanza nazo
setup-hand-other = hairuhusiwi na sheria hizi
setup-takasia = shimo la { $takasia } { $pit }: { $why }
setup-takasia-wrong-side = limeandikwa kwa upande usio sahihi
setup-takasia-not-in-rules = sheria hizi hazina { $takasia }
setup-takasia-back-row = ni shimo la mbele tu linaloweza kuzuiwa
setup-takasia-with-reserves = { $takasia } hutokea tu pale mikono yote miwili imeisha kete
setup-takasia-not-to-move = bila kipaumbele cha kula ni upande wenye zamu tu unaoweza kuwa na shimo lililozuiwa
setup-takasia-functional-house = { $nyumba } yenye nguvu haiwezi kuzuiwa (T2)
impossible-position = nafasi isiyowezekana: { $problems }

## Kwa nini mchezo uliisha.
end-bao-hamna = safu ya mbele imeisha kete
end-no-legal-move = hakuna hatua halali iliyobaki
end-own-front-row-empty = safu yake ya mbele imeisha kete
end-never-ending = hatua isiyoisha
outcome-bao-hamna = safu ya mbele ya aliyeshindwa ni tupu
outcome-no-legal-move = aliyeshindwa hana hatua halali
outcome-own-front-row-empty = aliyeshindwa alimaliza kete za safu yake ya mbele mwenyewe
outcome-never-ending = hatua isiyoisha
outcome-won = { $side } ameshinda: { $reason }
outcome-drawn = sare: { $reason }

## Sheria zisizoweza kusomwa.
unknown-preset = seti ya sheria `{ $name }` haijulikani (zinazojulikana: { $known })
unknown-preset-spec = seti ya sheria `{ $name }` haijulikani; seti zilizopo ni { $known }
rule-option-error = chaguo la sheria `{ $option }` haliwezi kuwa `{ $value }`: inatarajiwa { $expected }
stage-mismatch = hatua ya mchezo ni { $stage } lakini { $side }, mwenye zamu, ana kete { $hand } mkononi ({ $namua } wakati mkono bado una kete, vinginevyo { $mtaji })

## Marekebisho: makosa ya uandishi ambayo hatua iliyoandikwa inaweza kuwa nayo.
slip-row-swapped = safu A/B zimebadilishana
slip-other-row-letter = herufi ya safu ya mchezaji mwingine
slip-mirrored = hesabu ya Kusini/Kaskazini imegeuzwa
slip-other-end = imehesabiwa kutoka upande mwingine
slip-neighbour = shimo la jirani
slip-house-mark = `>` ni alama ya nyumba katika vitabu vingine: safari huandikwa `+`
slip-kichwa-flipped = upande wa kichwa umegeuzwa
slip-direction-flipped = mwelekeo umegeuzwa
slip-missing-takasa = `*` imekosekana
slip-extra-takasa = `*` ya ziada
slip-missing-safari = `+` imekosekana
slip-extra-safari = `+` ya ziada
slip-plies-swapped = hatua mbili zimebadilishana
slip-moves-swapped = hatua mbili za mchezaji mmoja zimebadilishana
slip-ply-too-many = hatua moja ya ziada
slip-ply-missing = hatua moja imekosekana

## Marekebisho: sentensi zinazoyapendekeza.
repair-replace = ulikusudia { $mv } ?
repair-as-annotation = , kama maelezo yake yanavyosema
repair-as-the-annotation = , kama maelezo yanavyosema
repair-swap-next = hatua { $ply } na { $with_ply } zinaonekana zimebadilishana: { $mv } hapa ({ $effect }{ $agrees }), kisha { $written } baada yake
repair-swap-later = hatua { $ply } na { $with_ply } zinaonekana zimebadilishana: { $mv } hapa ({ $effect }{ $agrees }), kisha { $written } hatua mbili baadaye
repair-insert = hatua moja inaonekana imekosekana kabla yake: baada ya { $mv } ({ $effect }) hatua iliyoandikwa ni halali kama { $written }{ $agrees }
repair-delete = hatua { $ply } inaonekana ni ya ziada (imeandikwa mara mbili?): bila hiyo, hatua inayofuata iliyoandikwa { $mv } ni halali hapa ({ $effect }{ $agrees })
repair-earlier = kosa linaonekana kuwa kwenye hatua { $ply }: { $mv } pale, si { $written } ({ $slips }{ $effect }{ $agrees }), inaifanya hatua hii kuwa halali
repair-it = { $effect }
short-swap = hatua { $ply } na { $with_ply } zimebadilishana
short-insert = { $mv } imeongezwa kabla yake
short-earlier = { $mv } kwenye hatua { $ply }
short-delete = hatua { $ply } imeondolewa
short-here = { $mv } hapa
repair-or = (au { $others })
written-plies = { $count ->
    [one] hatua { $count } iliyoandikwa
   *[other] hatua { $count } zilizoandikwa
}
continue-next-illegal = ; kisha hatua inayofuata iliyoandikwa si halali
continue-no-further = ; kisha { $plies } zinazofuata zinachezeka pia (ukaguzi hauangalii mbele zaidi)
continue-rest = ; kisha kumbukumbu iliyobaki ({ $plies }) inachezeka
continue-only-next = ; kisha ni hatua moja tu inayofuata iliyoandikwa inayochezeka, inayofuata baada yake si halali
continue-only = ; kisha ni { $plies } tu zinazofuata zinazochezeka, inayofuata baada yake si halali
assume-no-reading = --assume-fixes inasimamisha mstari huu hapa: hakuna hatua halali hapa inayofanana na kilichoandikwa.
assume-earlier = --assume-fixes inachukulia { $mv } kwenye hatua { $ply } na kuendelea kutoka hapo.
assume-repair = --assume-fixes inachukulia { $repair } na kuendelea.
assume-earlier-tie = --assume-fixes inasimamisha mstari huu hapa: marekebisho ya hatua ya awali yanawezekana sawa na ya hatua hii ({ $repairs }), kwa hiyo haijulikani kosa liko kwenye hatua ipi.
assume-tie = --assume-fixes inasimamisha mstari huu hapa: marekebisho yanayowezekana zaidi yanawezekana kwa usawa ({ $repairs }).
assume-unlikely = --assume-fixes inasimamisha mstari huu hapa: marekebisho yake yanayowezekana zaidi ({ $repair }) hayawezekani vya kutosha kuchukuliwa.
assume-second-swap = --assume-fixes inasimamisha mstari huu hapa: marekebisho yake bora ni kubadilishana kwa pili wakati kimoja bado kinasubiri.
assume-not-assumed = --assume-fixes inasimamisha mstari huu hapa: marekebisho yake bora ({ $repair }) hayachukuliwi.
as-likely = Inawezekana sawa: { $repair }
label-slip-here = kosa linaonekana kuwa hapa: { $mv }
label-or-slip-here = au kosa liko hapa: { $mv }

## Ujumbe wa lebo za mchezo na hatua zake (moves.rs ya bao-validate).
undecided = kikomo cha mizunguko kimeisha kwenye hatua hii (hatua moja ilizunguka mizunguko { $laps } bila jibu)
undecided-label = haikuamuliwa ndani ya kikomo cha mizunguko
undecided-help = Kukagua hatua hii (uhalali wake, au kama mchezo unaendelea baada yake) kulihitaji hatua iliyokuwa bado inaendelea `--lap-budget` ilipoisimamisha: huenda haiishi kamwe (G11) au inaisha baada ya mizunguko mingi. Hatua hii na mchezo uliobaki hazijakaguliwa; endesha `bao check` bila `--lap-budget` kupata jibu kamili.
unknown-rules = seti ya sheria `{ $preset }` haijulikani
unknown-rules-label = hakuna seti ya sheria yenye jina hili
unknown-rules-help = Seti za sheria ni { $known }; hatua za mchezo hazijakaguliwa.
bad-override = badiliko la sheria `{ $part }` haliwezi kutumika
bad-override-help-ruleset = Mabadiliko huandikwa `jina=thamani` baada ya seti ya sheria, kama katika [RuleSet "kiswahili mtaji_takasa_house=relay"]; hatua za mchezo hazijakaguliwa.
bad-override-help-rules = Mabadiliko huandikwa `jina=thamani`, yakitenganishwa kwa nafasi, kama katika [Rules "mtaji_takasa_house=relay"]; hatua za mchezo hazijakaguliwa.
invalid-position = lebo ya Position si nafasi halali ({ $count ->
    [one] tatizo { $count }
   *[other] matatizo { $count }
})
invalid-position-label = si nafasi ya seti hii ya sheria
these-rules = sheria hizi
invalid-position-help = Nafasi ina kete 64, mikono ya kete 22 au chini, nyumba zinazolingana na kete zao na takasia pale tu inapoweza kuwepo; hapa: { $reasons }. Hatua za mchezo hazijakaguliwa. Nafasi ya mwanzo ya { $whose } ni { $start }
never-ending-intent = Kama hatua isiyoisha ndiyo lengo la kumbukumbu, sema kuicheza kunaleta nini: [Rules "endless_move=draw"] (mchezo ni sare) au [Rules "endless_move=mover_loses"] (anayecheza ameshindwa). Hatua isiyoisha iliyoandikwa mwisho hairekebishwi kamwe na --fix.
convention-note = Mchezo wote unachezeka bila kosa alama zake zikisomwa kwa [Directions "{ $other }"]: kumbukumbu inaonekana kufuata mtindo huo.
rules-note = Mchezo wote unachezeka bila kosa chini ya [RuleSet "{ $other }"]: kumbukumbu inaonekana kuwa ya seti hiyo ya sheria.
no-such-pit = `{ $pit }` si jina la shimo
no-such-pit-label = hakuna shimo kama hilo
after-end = mchezo umeisha ({ $outcome }), lakini kumbukumbu inaendelea na { $token }
after-end-label = hatua baada ya mwisho wa mchezo
game-ended-here = mchezo uliisha kwa hatua hii
after-end-help = { $rule } Weka matokeo hapa, au kagua hatua zilizotangulia.
legal-captures-here = Hatua halali za kula hapa: { $moves }.
legal-moves-here = Hatua halali hapa: { $moves }.
false-takasia = { $token } inadai { $takasia } (`**`), lakini haileti yoyote
false-takasia-label = hakuna { $takasia } baada ya hatua hii
false-takasia-help = { $rule } Andika { $mv } bila `*` ya pili.
false-win = { $token } inadai kushinda (`#`), lakini mchezo unaendelea
false-win-label = hatua hii haishindi
false-win-help = { $rule } Baada ya { $mv } mpinzani bado ana kete kwenye safu yake ya mbele na hatua halali.
mismatch-written = Imeandikwa { $written }; { $mv } inatoa { $actual }.
capture-mismatch = kete zilizoliwa zilizoandikwa kwa { $token } si za hatua hiyo: zilizoandikwa { $written }, halisi { $actual }
lap-mismatch = miisho ya mizunguko iliyoandikwa kwa { $token } si ya hatua hiyo: iliyoandikwa { $written }, halisi { $actual }
capture-mismatch-label = kete zilizoliwa hazilingani
lap-mismatch-label = miisho ya mizunguko hailingani
move-effect = { $mv } { $effect }
capture-available = baada ya hatua hii kula kunawezekana
made-takasia = { $takasa } hii ililifanya shimo kuwa { $takasia }
made-pit-takasia = { $takasa } hii ilifanya { $pit } kuwa { $takasia }

## Matokeo, namna mchezo ulivyoisha na mechi (record.rs ya bao-validate).
result-tags-disagree = lebo ya Result inasema { $tag }, hatua zinaishia na { $token }
label-movetext-result = matokeo ya mwisho wa hatua
label-result-tag = lebo ya Result
result-tags-help = Lebo ya Result na matokeo ya mwisho wa hatua lazima yakubaliane.
result-mismatch = kumbukumbu inasema { $written }, lakini mchezo uliisha { $expected } ({ $outcome })
result-mismatch-label = inapaswa kuwa { $expected }
result-mismatch-help = Matokeo lazima yawe mwisho wa mchezo: { $outcome }. Andika { $expected }.
ends-early = kumbukumbu inaishia na { $written }, lakini mchezo unaendelea
ends-early-label = mchezo haujaisha hapa
ends-early-help = Mchezo huisha tu safu ya mbele ikiwa tupu au pasipo hatua halali (E1, E2). Kama mchezaji alikubali kushindwa au alishindwa kwa muda, sema hivyo kwa lebo ya Termination kama [Termination "resignation"]; vinginevyo kumbukumbu imekosa hatua.
termination-not-ended = mchezo haujaisha kwa sheria
termination-otherwise = mchezo uliisha kwa namna nyingine ({ $outcome }; sababu { $reason })
termination-by-rules = mchezo uliisha kwa sheria ({ $outcome })
termination-mismatch = Termination inasema `{ $termination }`, lakini { $problem }
termination-mismatch-label = hailingani na mwisho wa mchezo
termination-mismatch-help = Termination ni `normal`, `bao_hamna`, `no_legal_move`, `own_front_row_empty` au `never_ending` kwa mchezo ulioishwa na sheria, na `resignation`, `time_forfeit`, `agreement`, `abandoned` au `adjudication` kwa mchezo ambao haukuishwa nazo.
match-problem = mechi `{ $name }`: { $why }
match-label = hapa
match-help = Mechi ni bora ya tatu (E3): michezo 1, 2 na 3 kwa mpangilio, kati ya wachezaji wale wale wawili, inaisha mmoja akishinda miwili.
match-help-number = Mechi ni bora ya tatu (E3): michezo 1, 2 na 3 kwa mpangilio, kati ya wachezaji wale wale wawili, inaisha mmoja akishinda miwili. Hesabu michezo 1, 2, 3 kwa mpangilio ilivyochezwa.
match-too-many = mchezo { $game } ni zaidi ya michezo ya mechi ya bora ya tatu
match-wrong-number = huu ni mchezo wa { $expected } wa mechi katika faili, lakini lebo yake ya Game inasema { $game }
match-number-not-a-number = lebo ya Game si namba
match-no-number = mchezo wa { $expected } wa mechi hauna lebo ya Game
match-other-players = wachezaji ni { $a } na { $b }, si { $c } na { $d }
match-already-won = { $player } alikuwa ameshashinda michezo miwili

## Namba za hatua (numbers.rs ya bao-validate).
move-number-mismatch = namba ya hatua `{ $written }` hailingani na hatua yake: hatua { $ply } ni hatua ya { $side } ya zamu { $number }
move-number-label = hii ni `{ $right }`
move-number-help = `N.` huwekwa kabla ya hatua ya Kusini ya zamu N na `N...` kabla ya ya Kaskazini, zikihesabiwa kuanzia zamu 1 mwanzoni mwa mchezo (baada ya lebo ya `Position`, kuanzia namba ya hatua ya kwanza). Andika `{ $right }` hapa.

## Muhtasari wa faili lililokaguliwa, na ujumbe unaotegemea marekebisho yaliyochukuliwa.
summary = { $name }: { $errors }, { $warnings }
assuming = (ikichukuliwa { $mv } kwenye hatua { $ply })

## Kile `bao check --fix` ilichofanya (fix.rs ya bao-validate).
fixed-number = hatua { $ply }: namba ya hatua { $old } imekuwa { $new }
fixed-result = matokeo { $old } yamekuwa { $new }, ya ubao
fixed-replace = hatua { $ply }: { $old } imekuwa { $new }
fixed-swap = hatua { $ply } na { $with_ply }: { $a } na { $b } zimebadilishana
fixed-delete = hatua { $ply }: { $old } imeondolewa
fixed-insert = hatua { $ply }: { $new } imeongezwa
