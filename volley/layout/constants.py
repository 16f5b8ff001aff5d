"""Every spacing rule of the layout, in pixels at scale 1, each with the reason it has its value.

Tuning the look of a diagram is editing this file; the engine only combines these numbers.
"""

from __future__ import annotations

# --- Canvas -----------------------------------------------------------------------------------
MARGIN = 24  # white space around the whole picture, so nothing touches the edge of a README
TITLE_SIZE = 20  # the title reads as the heading of the figure, a step above everything else
TITLE_GAP = 18  # space between the title and the participant boxes below it
TITLE_MAX_WIDTH = 720  # a longer title wraps rather than stretching the picture
# … and so does a title or a divider's label longer than the lanes are wide, down to this: a
# long section label made a two-lane picture three times as wide, the lanes packed at its left
SPANNING_MIN_WRAP = 400

# --- Type -------------------------------------------------------------------------------------
LABEL_SIZE = 14  # message labels: the text people read most, at body size
PARTICIPANT_SIZE = 14  # participant names, bold, same size as labels so lanes and arrows balance
NOTE_SIZE = 13  # notes are commentary, one step smaller than the flow itself
SECTION_SIZE = 15  # section headers stand out from labels by size as well as weight
DIVIDER_SIZE = 13  # plain divider labels sit between the flow and the notes in importance
SMALL_SIZE = 11  # block tabs, number badges, payload markers: furniture, not content
APPENDIX_CODE_SIZE = 11  # payload bodies in the appendix: dense, monospace

# --- Participants -----------------------------------------------------------------------------
PARTICIPANT_PAD_X = 18  # room inside a box left and right of the name
PARTICIPANT_PAD_Y = 10  # room inside a box above and below the name
PARTICIPANT_MIN_WIDTH = 100  # short names still get a box that reads as a box, not a tag
PARTICIPANT_MAX_TEXT_WIDTH = 180  # longer names wrap so one name cannot widen every lane
PARTICIPANT_RADIUS = 6  # soft corners: a participant is a thing, not a table cell
PARTICIPANT_SHADOW = 2  # offset of the flat shadow that lifts the box off the page
PARTICIPANT_GAP = 28  # least space between two neighbouring boxes
MIN_LANE_DISTANCE = 150  # lanes narrower than this look cramped even when labels are short

# --- Lifelines --------------------------------------------------------------------------------
LIFELINE_DASH = "1 4"  # a dotted lifeline stays quiet behind solid arrows
FIRST_ROW_GAP = 8  # space between the top boxes and the first element
LAST_ROW_GAP = 22  # space between the last element and the bottom boxes

# --- Activation bars --------------------------------------------------------------------------
ACTIVATION_WIDTH = 10  # narrow enough to read as the lifeline thickened, wide enough to see
ACTIVATION_NEST_OFFSET = 5  # a nested bar sits this far right of the bar it is inside, so both show
BAR_GAP = 3  # least room between bars nested deep and a label, note or frame edge beside them

# --- Messages ---------------------------------------------------------------------------------
LABEL_WRAP_WIDTH = 300  # labels wrap here: about 45 characters, a comfortable line
CODE_LABEL_WIDTH = 720  # a label laid out as code lines wraps no sooner: a request's body
LABEL_PAD_X = 14  # least space between the end of a label and a lifeline it must not touch
LABEL_ARROW_GAP = 5  # space between a label's last line and the arrow under it
ROW_GAP = 13  # space above each message's label: separates one exchange from the next
ROW_BOTTOM = 8  # space under an arrow before the next element starts
LINE_WIDTH = 1.5  # solid and dashed arrows: visible on a HiDPI screen, not heavy on paper
BOLD_LINE_WIDTH = 3  # the `=>` arrow: clearly heavier than a normal one at a glance
DASH = "6 4"  # dashed replies: long enough dashes to read as a line, not dots
HEAD_LENGTH = 10  # arrow head length along the line
HEAD_HALF_WIDTH = 4.5  # half the head's width: a slender head that points, not a wedge
BOLD_HEAD_SCALE = 1.3  # heads on bold arrows grow so they do not vanish into the line
CROSS_SIZE = 5  # half the arm of the lost-message cross
CROSS_INSET = 14  # a lost message stops short of the receiver: it never arrives
HIT_WIDTH = 16  # the invisible stroke that makes an arrow easy to click in the viewer
LABEL_HALO = 3  # background around a label so a lifeline crossing it does not strike it out

# --- Self messages ----------------------------------------------------------------------------
SELF_LOOP_WIDTH = 34  # how far a message to self travels right before it turns back
SELF_LOOP_HEIGHT = 22  # the drop between a loop's outgoing and returning legs
SELF_LABEL_INDENT = 8  # a self label starts this far right of its lifeline, over the loop

# --- Badges and payload markers ---------------------------------------------------------------
BADGE_RADIUS = 9  # autonumber badge: fits two digits at SMALL_SIZE
BADGE_PAD_X = 4  # extra width per digit beyond two, so "100" still fits its pill
BADGE_GAP = 7  # between a badge or marker and the label it belongs to
BAND_EDGE_CLEARANCE = 3  # least room between a badge or marker and a box band's edge
MARKER_HEIGHT = 18  # payload marker pill: the same height as a badge, so a row stays level
MARKER_PAD_X = 6  # room inside the marker pill around its glyph and number
MARKER_RADIUS = 4  # squarer than a badge, so a marker never reads as a step number

# --- Notes ------------------------------------------------------------------------------------
NOTE_PAD_X = 12  # room inside a note left and right of its text
NOTE_PAD_Y = 9  # room inside a note above and below its text
NOTE_WRAP_WIDTH = 300  # a note over one lane wraps here; wider notes span lanes instead
# ... or here, where its writer broke its lines: a line of some sixty letters stays whole
NOTE_BROKEN_WRAP_WIDTH = 480
NOTE_OVERHANG = 14  # a spanning note reaches past its outer lifelines, so both ends show
NOTE_MIN_WIDTH = 60  # a one-word note still looks like a note
NOTE_GAP = 10  # space above a note (it belongs to the element before it)
NOTE_PARAGRAPH_GAP = 6  # space between paragraphs, lists and code blocks inside a note
NOTE_BULLET_INDENT = 16  # list text starts here, the bullet hangs in the indent
RULE_HEIGHT = 0.5  # a note's `---`: the room its line across takes, in ems (gaps either side)
BULLET_GAP = 5  # least space between a bullet (or "10.") and its item's text
NOTE_FOLD = 8  # the folded corner at the note's top right
NOTE_LANE_GAP = 8  # a note over one lane keeps this far from the next lifeline's label room
NOTE_SIDE_GAP = 10  # a note left or right of a lane stands this far from its lifeline (or bars)
CODE_PAD_X = 3  # inline code gets a tinted background a little wider than its text
CODE_BLOCK_PAD = 6  # a code block in a note sits in its own tinted panel
TABLE_CELL_PAD_X = 8  # room left and right of a table cell's text in a note
TABLE_CELL_PAD_Y = 4  # room above and below it

# --- Dividers and sections --------------------------------------------------------------------
DIVIDER_GAP = 16  # space above and below a plain divider line
DIVIDER_LABEL_PAD_X = 10  # room around a divider's label on its background pill
DIVIDER_LABEL_PAD_Y = 3  # vertical room in that pill
# The pill's ends: round for one line (half its height), a rounded corner for more, whose
# curve would otherwise cut into the ends of its first and last lines
DIVIDER_PILL_RADIUS = 11.5
SECTION_GAP_ABOVE = 22  # a section starts a new part of the story: more room above than below
SECTION_GAP_BELOW = 8  # the section's first element follows its header closely
SECTION_PAD_Y = 8  # the band's height around the header text
SECTION_PAD_X = 14  # header text starts this far inside the band
SECTION_ACCENT_WIDTH = 4  # the accent bar at the band's left end that marks it as a heading
ICON_GAP = 4  # between an icon and a word written against it (`{fas-plug}Plug`)
DELAY_HEIGHT = 34  # the break in the lifelines for `...:`: clearly a pause, not a row

# --- Blocks -----------------------------------------------------------------------------------
BLOCK_LABEL_MIN_WIDTH = 140  # a block's label wraps short of an open bar only with this room
# … and, with less, after the bars there, where it has at least this room (and more than before)
BLOCK_LABEL_AFTER_BARS = 100
BLOCK_PAD_X = 14  # a frame clears the labels and lifelines it encloses by this much
FRAME_LANE_CLEARANCE = 10  # least distance from a frame's edge to a lifeline it does not involve
BLOCK_NEST_INSET = 10  # each nested frame sits this much further inside its parent
BLOCK_GAP_ABOVE = 12  # space above a frame's top edge
BLOCK_PAD_TOP = 8  # space between the tab and the frame's first element
BLOCK_PAD_BOTTOM = 12  # space between a frame's last element and its bottom edge
BLOCK_GAP_BELOW = 6  # space after a frame before the next element
BLOCK_TAB_PAD_X = 8  # room inside the kind tab
BLOCK_TAB_PAD_Y = 3  # vertical room inside the kind tab
BLOCK_TAB_CUT = 7  # the tab's cut corner, the classic UML frame tab
BLOCK_LABEL_GAP = 8  # between the tab and the block's label beside it
BLOCK_RADIUS = 4  # frames get a slight rounding to match the boxes
SEPARATOR_GAP = 8  # space above an else/and separator line and under its label

# --- Boxes (Mermaid's `box`: participants grouped on a band) ----------------------------------
BAND_PAD_X = 10  # a band reaches this far past the participant boxes it holds
BAND_PAD_Y = 8  # and this far above its label, and below the boxes at the foot
BAND_GAP = 12  # least space between two bands side by side
# between a band's edge and a note or a self-message's label about a lane outside the band
OUTSIDE_BAND_GAP = 8
BAND_LABEL_SIZE = 13  # its label: bold, a step below a participant's name, which it heads
BAND_LABEL_GAP = 6  # between the label and the participant boxes under it
BAND_LABEL_PAD_X = 10  # least room left and right of the label inside the band
BAND_LABEL_MAX_WIDTH = 260  # a longer label wraps
BAND_RADIUS = 8  # softer than a participant box's corners: it holds them

# --- Appendix (`bodies="appendix"`) -----------------------------------------------------------
APPENDIX_GAP = 28  # space between the bottom boxes and the appendix heading
APPENDIX_ENTRY_GAP = 14  # space between two entries
APPENDIX_BODY_GAP = 10  # space between the two bodies of one message
APPENDIX_HEADING_SIZE = 13  # a body's heading: number, sender → receiver, label
APPENDIX_HEADING_GAP = 5  # between a body's heading and its panel
APPENDIX_CODE_PAD = 8  # room inside the panel that holds a body
APPENDIX_MAX_WIDTH = 720  # a reading column: longer body lines wrap inside it, never cut
