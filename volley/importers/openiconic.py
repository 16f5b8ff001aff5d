"""PlantUML's OpenIconic icons (`<&check>` in its text) and the Font Awesome icon volley draws
for each that has a close match (`{fas-check}`): the icons people put in sequence diagrams
(states, files, people, locks, clouds, arrows). One with no match is left out, with a comment.
"""

from __future__ import annotations

# OpenIconic's name, then Font Awesome's (solid), in pairs
_PAIRS = """
    account-login right-to-bracket  account-logout right-from-bracket  arrow-bottom arrow-down
    arrow-left arrow-left  arrow-right arrow-right  arrow-top arrow-up  badge certificate
    ban ban  bar-chart chart-column  basket basket-shopping  beaker flask  bell bell  bolt bolt
    book book  bookmark bookmark  box box  briefcase briefcase  browser window-maximize  bug bug
    calendar calendar  camera-slr camera  cart cart-shopping  chat comments  check check
    circle-check circle-check  circle-x circle-xmark  clock clock  cloud cloud
    cloud-download cloud-arrow-down  cloud-upload cloud-arrow-up  code code  cog gear
    comment-square message  credit-card credit-card  dashboard gauge
    data-transfer-download download  data-transfer-upload upload  document file-lines
    dollar dollar-sign  envelope-closed envelope  envelope-open envelope-open  euro euro-sign
    external-link up-right-from-square  eye eye  file file  fire fire  flag flag  flash bolt
    folder folder  fork code-fork  globe globe  graph chart-line  heart heart  home house
    image image  infinity infinity  info circle-info  key key  laptop laptop
    layers layer-group  lightbulb lightbulb  link-intact link  list list  location location-arrow
    lock-locked lock  lock-unlocked lock-open  loop-circular arrows-rotate
    magnifying-glass magnifying-glass  map-marker location-dot  medical-cross kit-medical
    menu bars  microphone microphone  minus minus  monitor display  moon moon
    paperclip paperclip  pencil pencil  people users  person user  phone phone
    pie-chart chart-pie  plus plus  power-standby power-off  print print  project diagram-project
    pulse wave-square  puzzle-piece puzzle-piece  question-mark question  random shuffle
    reload rotate-right  rss rss  script scroll  share share  shield shield-halved
    signal signal  spreadsheet table  star star  sun sun  tag tag  tags tags  target bullseye
    task list-check  terminal terminal  thumb-down thumbs-down  thumb-up thumbs-up
    timer stopwatch  transfer right-left  trash trash  warning triangle-exclamation  wifi wifi
    wrench wrench  x xmark  zoom-in magnifying-glass-plus  zoom-out magnifying-glass-minus
"""
_WORDS = _PAIRS.split()
FONT_AWESOME: dict[str, str] = dict(zip(_WORDS[::2], _WORDS[1::2], strict=True))
