"""`upref enroll <game>`: teach the host which card or tile each NFC tag is stuck on.

Connects to the board, suggests the next card not yet enrolled ("Tap T13: 2 shovels — yellow 2,
red 3"), waits for a tag on the reader, asks which card it is (Enter = the suggested one),
records it at once in the tag book (`upref.store.tags`), answers on the board (green LED and a
beep; red and a low beep when refused) and waits for the card to leave before the next.

    upref enroll updown                 # interactive
    upref enroll updown --auto          # each tap is the suggested card, no questions
    upref enroll updown --list          # what is enrolled, what is missing
    upref enroll updown --forget UID    # drop one tag (or --forget T07: that card's tag)
    upref enroll updown --replace       # a card may get a new tag (a replaced card)
    upref enroll updown --simulated     # the simulated board's deck, every tag at once

A tag already enrolled is refused, naming the card it belongs to. Ctrl-C (or Ctrl-D at the
question) stops; every enrolment is already saved.
"""

from __future__ import annotations

import argparse
import queue
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from upref.board.simtags import sim_uids
from upref.commands.connect import BoardLink
from upref.commands.lang_option import add_lang_option, chosen_lang, said, said_error
from upref.link.connection import Link, LinkError
from upref.link.notices import LinkItem, Offline, Online, Resynced
from upref.link.protocol import CardArrived, CardLeft, Snapshot
from upref.registry import UnknownGame, find_game, games, titles
from upref.store.tags import (
    ItemTaken,
    Tag,
    TagBook,
    TagBookError,
    TagTaken,
    normalize_uid,
)
from upref.text import Msg

__all__ = [
    "ACCEPTED", "REFUSED", "BoardLink", "EnrolSettings", "Enrolment", "enrol_simulated", "main",
]

# Board feedback: (LED colour, LED milliseconds, BEEP pattern)
ACCEPTED = ("00FF00", "300", "1200:80")
REFUSED = ("FF0000", "600", "300:250")

SKIP_WORDS = ("skip", "s", "-")


@dataclass(frozen=True)
class EnrolSettings:
    """How one run of enrolment behaves; the defaults ask which card each tap is.

    :param auto: each tap is taken as the suggested card, with no question.
    :param replace: a card already enrolled may be given the tapped tag (its old tag is dropped).
    :param poll: how long one wait on the link's queue lasts (Ctrl-C is seen between waits).
    :param piece: what one piece is called in what the enrolment says ('card', 'tile').
    """

    auto: bool = False
    replace: bool = False
    poll: float = 0.25
    piece: str = "card"


class Enrolment:
    """One run of enrolment for one game on one board.

    :param items: (item id, label) of the game's catalogue, in the order to suggest them.
    :param settings: how this run behaves (`EnrolSettings`: the defaults ask about every tap).
    :param input_fn: asks a question and returns the answer (`input`); EOFError or
        KeyboardInterrupt end the enrolment.
    :param out: where the enrolment speaks (stdout when None).
    """

    def __init__(
        self,
        link: BoardLink,
        tag_book: TagBook,
        game: str,
        items: list[tuple[str, str]],
        settings: EnrolSettings | None = None,
        *,
        input_fn: Callable[[str], str] = input,
        out: TextIO | None = None,
    ) -> None:
        self.settings = settings if settings is not None else EnrolSettings()
        self.link = link
        self.tag_book = tag_book
        self.game = game
        self.order = [item for item, _ in items]
        self.labels = dict(items)
        self.input_fn = input_fn
        self.out = out if out is not None else sys.stdout
        self.in_field: str | None = None  # the tag on the reader, as far as the host knows
        self._arrived: str | None = None  # a tap seen while waiting for something else
        self._offline = False
        self._feedback_failed = False

    # -- the loop -----------------------------------------------------------------------------

    def run(self) -> int:
        """Enrol until every card has a tag (0), or until stopped (KeyboardInterrupt/EOFError
        propagate: the caller reports what was saved).

        :raises LinkError: when the link fails for good (a protocol mismatch).
        """
        total = len(self.order)
        while True:
            missing = self.tag_book.missing(self.game, self.order)
            done = total - len(missing)
            every = Msg(
                "All {total} {game} {pieces} are enrolled.",
                total=total,
                game=self.game,
                pieces=pieces_word(self.settings.piece),
            )
            if not missing and not self.settings.replace:
                self.say(every)
                return 0
            suggested = missing[0] if missing else None
            if suggested is not None:
                self.say(Msg("{done} of {total} enrolled.", done=done, total=total))
                self.say(Msg("Tap {piece}", piece=self.labels[suggested]))
            elif self.settings.auto:
                self.say(every)
                return 0
            else:
                self.say(
                    Msg(
                        "All {total} enrolled. Tap a {piece} to give it a new tag (--replace).",
                        total=total,
                        piece=piece_word(self.settings.piece),
                    )
                )
            uid = self.wait_for_tap()
            self.handle(uid, suggested)
            self.wait_until_lifted(uid)

    def handle(self, uid: str, suggested: str | None) -> Tag | None:
        """Decide what the tapped tag is and record it; returns the enrolment, or None when
        nothing was recorded (refused or skipped)."""
        known = self.tag_book.lookup(uid)
        if known is not None:
            self.refuse(self._known_words(uid, known))
            return None
        if self.settings.auto and suggested is not None:
            item: str | None = suggested
        else:
            item = self.ask(uid, suggested)
        if item is None:
            self.say(Msg("Skipped tag {uid}: nothing recorded.", uid=uid))
            return None
        try:
            result = self.tag_book.enroll(uid, self.game, item, replace=self.settings.replace)
        except (TagTaken, ItemTaken) as exc:  # another process enrolled meanwhile
            self.refuse(Msg("Refused: {why}.", why=said_error(exc)))
            return None
        text = Msg("Enrolled {piece} (tag {uid}).", piece=self.label(item), uid=uid)
        if result.replaced is not None:
            text += " " + Msg("Its old tag {uid} is forgotten.", uid=result.replaced.uid)
        self.say(text)
        self.feedback(ACCEPTED)
        return result.tag

    def ask(self, uid: str, suggested: str | None) -> str | None:
        """Which card carries tag `uid`? An item id, or None to skip."""
        piece = piece_word(self.settings.piece)
        if suggested is not None:
            prompt = Msg(
                "Tag {uid}: which {piece} is it? [Enter = {suggested}, a {piece} id, or skip] ",
                uid=uid,
                piece=piece,
                suggested=suggested,
            )
        else:
            prompt = Msg("Tag {uid}: which {piece} is it? [a {piece} id, or skip] ", uid=uid, piece=piece)
        while True:
            answer = self.input_fn(said(prompt)).strip()
            if not answer:
                if suggested is not None:
                    return suggested
                self.say(Msg("Type the {piece}'s id (or skip).", piece=piece))
                continue
            if answer.lower() in SKIP_WORDS:
                return None
            item = resolve_item(answer, self.order)
            if item is None:
                self.say(
                    Msg(
                        "There is no {game} {piece} {answer!r}. The {pieces} are: {ids}.",
                        game=self.game,
                        piece=piece,
                        answer=answer,
                        pieces=pieces_word(self.settings.piece),
                        ids=", ".join(self.order),
                    )
                )
                continue
            current = self.tag_book.tag_of(self.game, item)
            if current is not None and current.uid != uid and not self.settings.replace:
                self.say(
                    Msg(
                        "{item} is already enrolled with tag {uid}. Type another {piece}, or skip. "
                        "If this {piece} replaces a lost one, run `upref enroll {game} --replace`.",
                        item=item,
                        uid=current.uid,
                        piece=piece,
                        game=self.game,
                    )
                )
                continue
            return item

    # -- the board ----------------------------------------------------------------------------

    def wait_for_tap(self) -> str:
        """Block until a tag arrives on the reader; its UID."""
        while True:
            if self._arrived is not None:
                uid, self._arrived = self._arrived, None
                return uid
            uid = self._next()
            if uid is not None:
                return uid

    def wait_until_lifted(self, uid: str) -> None:
        """Block until the tag leaves the reader (or another one takes its place)."""
        while self._arrived is None and self._drain():
            pass  # apply what came meanwhile, up to the next tap (it stays queued after)
        if self._arrived is not None or self.in_field != uid:
            return
        self.say(Msg("Lift the {piece}.", piece=piece_word(self.settings.piece)))
        while self.in_field == uid and self._arrived is None:
            self._next()

    def _drain(self) -> bool:
        """Apply what is already queued without waiting; True if something was."""
        try:
            item = self.link.events.get_nowait()
        except queue.Empty:
            return False
        uid = self._apply(item)
        if uid is not None:
            self._arrived = uid
        return True

    def _next(self) -> str | None:
        """Wait for one item (at most `poll` s) and apply it; the UID if a tag arrived."""
        error = self.link.error
        if error is not None:
            raise error
        try:
            item = self.link.events.get(timeout=self.settings.poll)
        except queue.Empty:
            return None
        return self._apply(item)

    def _apply(self, item: LinkItem) -> str | None:
        match item:
            case CardArrived(uid=uid):
                self.in_field = uid
                return uid
            case CardLeft(uid=uid):
                if self.in_field == uid:
                    self.in_field = None
            case Resynced() | Snapshot():
                snap = item.snapshot if isinstance(item, Resynced) else item
                if snap.card != self.in_field:
                    self.in_field = snap.card
                    return snap.card
            case Offline(reason=reason):
                if not self._offline:
                    self._offline = True
                    self.say(
                        Msg("The board is offline ({reason}); waiting for it to come back.", reason=reason)
                    )
            case Online():
                if self._offline:
                    self._offline = False
                    self.say(Msg("The board is back."))
        return None

    def feedback(self, kind: tuple[str, str, str]) -> None:
        colour, ms, beep = kind
        try:
            self.link.command("LED", colour, ms)
            self.link.command("BEEP", beep)
        except LinkError as exc:
            if not self._feedback_failed:
                self._feedback_failed = True
                self.say(Msg("(no LED/beep from the board: {why})", why=said_error(exc)))

    # -- text ---------------------------------------------------------------------------------

    def refuse(self, text: str) -> None:
        self.say(text)
        self.feedback(REFUSED)

    def label(self, item: str) -> str:
        return self.labels.get(item, f"{self.game} {item}")

    def say(self, text: str) -> None:
        print(said(text), file=self.out, flush=True)

    def _known_words(self, uid: str, known: Tag) -> str:
        """Why a tag already enrolled is not recorded again, and what to do."""
        if known.game == self.game:
            return Msg(
                "Tag {uid} is already enrolled as {label}: nothing recorded. To enrol it as "
                "another {piece}, first `upref enroll {game} --forget {uid}`.",
                uid=uid,
                label=self.label(known.item),
                piece=piece_word(self.settings.piece),
                game=self.game,
            )
        return Msg(
            "Tag {uid} is already enrolled as {other} {item} ({title}), not one of the {game} "
            "{pieces}: nothing recorded. Remove it first with `upref enroll {other} --forget "
            "{uid}`.",
            uid=uid,
            other=known.game,
            item=known.item,
            title=titles().get(known.game, known.game),
            game=self.game,
            pieces=pieces_word(self.settings.piece),
        )


def resolve_item(text: str, items: list[str]) -> str | None:
    """The item `text` names: its id in any case ('t07' -> 'T07'), or a bare number when exactly
    one id has that number ('7' -> 'T07'); None if none."""
    by_lower = {i.lower(): i for i in items}
    if text.lower() in by_lower:
        return by_lower[text.lower()]
    if text.isdigit():
        matches = [i for i in items if re.fullmatch(r"[A-Za-z]*0*" + str(int(text)), i)]
        if len(matches) == 1:
            return matches[0]
    return None


# --- the subcommand ---------------------------------------------------------------------------


def catalogue_items(game: str) -> list[tuple[str, str]]:
    """(item id, label) of every tagged piece of the game, in catalogue order.

    :raises TagBookError: for a game upref does not know.
    :raises ValueError: when the game's catalogue data file is invalid.
    """
    try:
        return list(find_game(game).items())
    except UnknownGame as exc:
        raise TagBookError(str(exc)) from None


_PIECE_WORDS = {
    "card": (Msg("card"), Msg("cards")),
    "tile": (Msg("tile"), Msg("tiles")),
    "piece": (Msg("piece"), Msg("pieces")),
}
"""The words for a game's tagged pieces (`Game.piece`), one and many, as people read them."""


def piece_word(piece: str) -> str:
    """'card' as a sentence of the catalogue (said in the language asked for)."""
    return _PIECE_WORDS.get(piece, (piece, piece + "s"))[0]


def pieces_word(piece: str) -> str:
    """'cards': the word for several of a game's pieces."""
    return _PIECE_WORDS.get(piece, (piece, piece + "s"))[1]


def _piece(game: str) -> str:
    """What one of the game's tagged pieces is called ('card', 'tile')."""
    try:
        return find_game(game).piece
    except UnknownGame:
        return "piece"


def list_tags(tag_book: TagBook, game: str, out: TextIO) -> int:
    tags = tag_book.tags(game)
    try:
        items = catalogue_items(game)
    except TagBookError as exc:
        items = []
        note = str(exc)
    else:
        note = ""
    labels = dict(items)
    title = f"{titles().get(game, game)} ({game})"
    in_catalogue = [t for t in tags if t.item in labels]
    if items:
        print(f"{title}: {len(in_catalogue)} of {len(items)} enrolled", file=out)
    else:
        print(f"{title}: {len(tags)} tags enrolled", file=out)
    order = {item: i for i, (item, _) in enumerate(items)}
    for t in sorted(in_catalogue, key=lambda t: order[t.item]):
        print(f"  {t.uid:<20}  {labels[t.item]}  ({t.enrolled_at})", file=out)
    stale = [t for t in tags if t.item not in labels]
    if stale and items:
        print(f"Not in the {game} catalogue ({len(stale)}):", file=out)
    for t in stale:
        print(f"  {t.uid:<20}  {t.item}  ({t.enrolled_at})", file=out)
    missing = tag_book.missing(game, [item for item, _ in items])
    if missing:
        print(f"Missing ({len(missing)}):", file=out)
        for item in missing:
            print(f"  {labels[item]}", file=out)
    elif items:
        print("Nothing missing.", file=out)
    if note:
        print(note, file=out)
    return 0


@dataclass
class _SimulatedEnrolment:
    """What enrolling the simulated tags did: counts, and the pieces that kept another tag, the
    tags refused and the tags forgotten for a simulated one."""

    added: int = 0
    unchanged: int = 0
    kept: list[Tag] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    replaced: list[Tag] = field(default_factory=list)


def enrol_simulated(
    tag_book: TagBook, game: str, replace: bool, out: TextIO, err: TextIO
) -> int:
    """Enrol the simulated board's tags of every piece of the game in one step (the UIDs its
    deck carries by the rule of upref.board.simtags); no board is needed. A piece enrolled with
    another tag (a real deck's) keeps it unless `replace`; a simulated UID enrolled as another
    piece is refused. 0 when every piece has its simulated tag afterwards, else 1."""
    try:
        items = catalogue_items(game)
    except ValueError as exc:  # TagBookError, or an invalid catalogue file
        print(f"upref enroll: {exc}", file=err)
        return 1
    done = _enrol_sim_uids(tag_book, game, items, replace)
    _report_simulated(done, game, items, out, err)
    return 1 if done.kept or done.refused else 0


def _enrol_sim_uids(
    tag_book: TagBook, game: str, items: list[tuple[str, str]], replace: bool
) -> _SimulatedEnrolment:
    """Enrol the simulated UID of each item, noting what each enrolment did.

    :raises TagBookError: when the tag book cannot be written (nothing is enrolled then).
    """
    done = _SimulatedEnrolment()
    with tag_book.batch():  # the whole deck or nothing: a full disk half-way changes nothing
        for item, uid in sim_uids(game, items).items():
            try:
                result = tag_book.enroll(uid, game, item, replace=replace)
            except ItemTaken as exc:
                done.kept.append(exc.existing)
                continue
            except TagTaken as exc:
                done.refused.append(str(exc))
                continue
            if not result.created:
                done.unchanged += 1
                continue
            done.added += 1
            if result.replaced is not None:
                done.replaced.append(result.replaced)
    return done


def _report_simulated(
    done: _SimulatedEnrolment, game: str, items: list[tuple[str, str]], out: TextIO, err: TextIO
) -> None:
    """Say what enrolling the simulated tags did, and what to do next."""
    piece = _piece(game)
    added, unchanged, kept, refused, replaced = (
        done.added, done.unchanged, done.kept, done.refused, done.replaced
    )
    total = len(items)
    enrolled = added + unchanged
    count = f"the simulated board's {total} {piece}s" if enrolled == total else \
        f"{enrolled} of the simulated board's {total} {piece}s"
    print(
        f"{titles()[game]}: {count} are enrolled ({added} added, {unchanged} already enrolled).",
        file=out,
    )
    if replaced:
        print(
            f"{len(replaced)} {piece}s had another tag, now forgotten: "
            f"{', '.join(t.item for t in replaced)}",
            file=out,
        )
    if kept:
        print(
            f"{len(kept)} {piece}s already have another tag (a real deck's) and keep it, so "
            f"their simulated tags mean nothing to upref: {', '.join(t.item for t in kept)}. "
            f"To play them on the simulated board: `upref enroll {game} --simulated --replace` "
            "(their other tags are then forgotten).",
            file=err,
        )
    for why in refused:
        print(f"  refused: {why}", file=err)
    if not kept and not refused:
        print(
            f"Tap them on the simulated board by their ids: `upref simctl tap {items[0][0]}`.",
            file=out,
        )


def export_tags(tag_book: TagBook, game: str, path: str, out: TextIO) -> int:
    if path == "-":
        tag_book.export_csv(out, game)
        return 0
    try:
        with open(path, "w", encoding="utf-8", newline="") as f:
            n = tag_book.export_csv(f, game)
    except OSError as exc:
        raise TagBookError(f"cannot write {path}: {exc.strerror or exc}") from None
    print(f"Wrote {n} {game} tags to {path}.", file=out)
    return 0


def import_tags(
    tag_book: TagBook, game: str, path: str, replace: bool, out: TextIO, err: TextIO
) -> int:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise TagBookError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise TagBookError(f"{path} is not a text file: a tag list is CSV") from None
    games_in = {row.split(",")[1].strip() for row in lines[1:] if row.count(",") >= 2}
    if games_in - {game}:
        raise TagBookError(
            f"{path} holds tags of {', '.join(sorted(games_in - {game}))}, not only {game}: "
            f"import it with `upref enroll <that game> --import {path}`"
        )
    result = tag_book.import_csv(lines, replace=replace)
    print(
        f"Imported {path}: {result.added} tags added, {result.unchanged} already enrolled, "
        f"{len(result.refused)} refused.",
        file=out,
    )
    for why in result.refused:
        print(f"  refused {why}", file=err)
    return 1 if result.refused else 0


def forget_tag(tag_book: TagBook, game: str, what: str, out: TextIO, err: TextIO) -> int:
    try:
        uid = normalize_uid(what)
    except TagBookError as bad_uid:
        try:
            ids = [item for item, _ in catalogue_items(game)]
        except TagBookError:
            ids = [t.item for t in tag_book.tags(game)]
        item = resolve_item(what, ids)
        tag = tag_book.tag_of(game, item) if item is not None else None
        if item is None:
            print(f"upref enroll: {bad_uid} (nor is it a {game} {_piece(game)} id)", file=err)
            return 2
        if tag is None:
            print(f"{game} {item} has no tag enrolled: nothing to forget.", file=out)
            return 0
        uid = tag.uid
    known = tag_book.lookup(uid)
    if known is None:
        print(f"Tag {uid} is not enrolled: nothing to forget.", file=out)
        return 0
    if known.game != game:
        print(
            f"upref enroll: tag {uid} is enrolled as {known.game} {known.item}, not a {game} "
            f"{_piece(game)}; to forget it: `upref enroll {known.game} --forget {uid}`",
            file=err,
        )
        return 1
    tag_book.forget(uid)
    print(f"Forgot tag {uid} (was {game} {known.item}).", file=out)
    return 0


def _parser() -> argparse.ArgumentParser:
    """The options of `upref enroll`."""
    parser = argparse.ArgumentParser(
        prog="upref enroll",
        description=said(Msg("Record which card or tile each NFC tag is on: tap them one by one.")),
    )
    parser.add_argument(
        "game", choices=[g.name for g in games()], help=said(Msg("the game whose cards to enrol"))
    )
    parser.add_argument(
        "--port",
        metavar="URL",
        help=said(
            Msg("device path or pyserial URL (default: find the board, else a running simulator)")
        ),
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--list", action="store_true", help=said(Msg("show enrolled tags and missing cards"))
    )
    what.add_argument(
        "--forget", metavar="UID", help=said(Msg("remove one tag (a UID, or a card id)"))
    )
    what.add_argument(
        "--export",
        metavar="FILE",
        help=said(Msg("write this game's tags as CSV, to share ('-': stdout)")),
    )
    what.add_argument(
        "--import",
        dest="import_",
        metavar="FILE",
        help=said(Msg("enrol the tags of a CSV written by --export")),
    )
    what.add_argument(
        "--simulated",
        action="store_true",
        help=said(
            Msg(
                "enrol the simulated board's tags of every piece at once (no tapping; a real deck "
                "goes through tapping)"
            )
        ),
    )
    parser.add_argument(
        "--auto",
        action="store_true",
        help=said(Msg("take each tap as the suggested card, without asking")),
    )
    parser.add_argument(
        "--replace",
        action="store_true",
        help=said(Msg("let a card already enrolled get the tapped tag (its old tag is forgotten)")),
    )
    add_lang_option(parser)
    return parser


def main(
    argv: list[str] | None = None,
    *,
    opener: Callable[[str | None], BoardLink] = Link,
    input_fn: Callable[[str], str] = input,
    out: TextIO | None = None,
    err: TextIO | None = None,
    tag_book: TagBook | None = None,
) -> int:
    args = _parser().parse_intermixed_args(argv)
    chosen_lang(args, "upref enroll")
    stream = out if out is not None else sys.stdout
    errs = err if err is not None else sys.stderr

    own_book = tag_book is None
    try:
        reading = args.list or args.export is not None  # nothing to change: read only
        reg = tag_book if tag_book is not None else TagBook(read_only=reading)
    except TagBookError as exc:
        print("upref enroll: " + said(said_error(exc)), file=errs)
        return 1
    try:
        return _run(args, reg, opener, input_fn, stream, errs)
    except TagBookError as exc:
        print("upref enroll: " + said(said_error(exc)), file=errs)
        return 1
    finally:
        if own_book:
            reg.close()


def _run(
    args: argparse.Namespace,
    reg: TagBook,
    opener: Callable[[str | None], BoardLink],
    input_fn: Callable[[str], str],
    out: TextIO,
    err: TextIO,
) -> int:
    """What the options ask for: a list, a tag forgotten, an export, an import, the simulated
    tags, or enrolment by tapping."""
    game: str = args.game
    if args.list:
        return list_tags(reg, game, out)
    if args.forget is not None:
        return forget_tag(reg, game, args.forget, out, err)
    if args.export is not None:
        return export_tags(reg, game, args.export, out)
    if args.import_ is not None:
        return import_tags(reg, game, args.import_, args.replace, out, err)
    if args.simulated:
        return enrol_simulated(reg, game, args.replace, out, err)
    return _enrol(args, reg, opener, input_fn, out, err)


def _enrol(
    args: argparse.Namespace,
    reg: TagBook,
    opener: Callable[[str | None], BoardLink],
    input_fn: Callable[[str], str],
    out: TextIO,
    err: TextIO,
) -> int:
    game: str = args.game
    try:
        items = catalogue_items(game)
    except ValueError as exc:  # TagBookError, or an invalid catalogue file
        print("upref enroll: " + said(said_error(exc)), file=err)
        return 1
    try:
        link = opener(args.port)
    except LinkError as exc:
        print("upref enroll: " + said(said_error(exc)), file=err)
        return 1
    settings = EnrolSettings(auto=args.auto, replace=args.replace, piece=_piece(game))
    enrolment = Enrolment(link, reg, game, items, settings, input_fn=input_fn, out=out)
    pieces = pieces_word(_piece(game))
    starting = Msg(
        "Enrolling {title} {pieces} on the board at {url} (tags are saved as you go; Ctrl-C stops).",
        title=titles()[game],
        pieces=pieces,
        url=link.url,
    )
    print(said(starting), file=out, flush=True)
    try:
        return enrolment.run()
    except (KeyboardInterrupt, EOFError):
        enrolled = len(items) - len(reg.missing(game, [i for i, _ in items]))
        stopped = Msg(
            "Stopped: {enrolled} of {total} {game} {pieces} enrolled, all saved.",
            enrolled=enrolled,
            total=len(items),
            game=game,
            pieces=pieces,
        )
        print("\n" + said(stopped), file=out, flush=True)
        return 0
    except LinkError as exc:
        print("upref enroll: " + said(said_error(exc)), file=err)
        return 1
    finally:
        close = getattr(link, "close", None)
        if close is not None:
            close()
