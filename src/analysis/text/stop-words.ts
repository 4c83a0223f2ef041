/**
 * Common function words of the languages pagegrade's users write in most (English, French, German, Spanish,
 * Italian, Portuguese, Dutch), plus words that site titles use as filler. A title word in this list is not a
 * keyword.
 */

const lists = [
  // English
  "a about above after again all also am an and any are as at be because been before being below between both but by can could did do does doing down during each few for from further get had has have having he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the their theirs them then there these they this those through to too under until up very was we were what when where which while who whom why will with would you your yours home page official site welcome new best top",
  // French
  "au aux avec ce ces dans de des du elle en et eux il ils je la le les leur lui ma mais me même mes moi mon ne nos notre nous on ou où par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous est sont été être avoir accueil site officiel",
  // German
  "aber alle als also am an auch auf aus bei bin bis bist da damit dann das dass dein deine dem den der des dich die dir du ein eine einem einen einer eines er es für hat hatte ich ihr im in ist ja kein mit nach nicht noch nun nur ob oder ohne sein sich sie sind so über um und uns unser von vor war was wenn wer wie wir wird zu zum zur startseite offizielle",
  // Spanish
  "al algo ante como con contra cual cuando de del desde donde el ella ellos en entre era es esa ese eso esta este esto estos fue ha hay la las le les lo los mas más me mi muy no nos o os para pero por que qué se sea ser si sin sobre su sus también te tu un una uno unos y ya inicio página oficial",
  // Italian
  "ad ai al alla alle allo anche che chi ci come con cui da dai dal dalla degli dei del della delle dello di e ed gli ha i il in la le lo ma mi ne negli nei nel nella non o per più quale quando se si sono su sua sue sui sul sulla suo tra tu un una uno",
  // Portuguese
  "ao aos as com como da das de do dos e ela ele eles em entre era essa esse esta este eu foi há isso isto já mais mas me meu minha muito na nas nem no nos o os ou para pela pelas pelo pelos por qual quando que se sem seu sua são também te um uma você",
  // Dutch
  "aan al als bij dan dat de der die dit door een en er het hij hoe ik in is je kan met na naar niet nog of om onder ook op over te tot uit van voor was wat we wel wie wij zal ze zich zij zijn",
];

export const stopWords: ReadonlySet<string> = new Set(lists.flatMap((list) => list.split(" ")));
