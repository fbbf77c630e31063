// The 69 post reactions (spec section 9). Shared by the server (validation, counts), the reaction
// picker and the script that copies the images into public/post-reactions/ (scripts/build-reactions.ts).
// `codePoints` are the Unicode scalar values of the emoji, lowercase hex, in order; the image of a
// reaction is public/post-reactions/<id>.svg.

export type ReactionDefinition = {
  id: string;
  codePoints: readonly string[];
  title: { ru: string; en: string };
};

export const REACTIONS = [
  { id: "big-smile", codePoints: ["1f603"], title: { ru: "Широкая улыбка", en: "Big smile" } },
  { id: "smile", codePoints: ["1f642"], title: { ru: "Улыбка", en: "Smile" } },
  { id: "grin", codePoints: ["1f601"], title: { ru: "Усмешка", en: "Grin" } },
  { id: "joy", codePoints: ["1f602"], title: { ru: "Слёзы радости", en: "Tears of joy" } },
  { id: "rofl", codePoints: ["1f923"], title: { ru: "Катаюсь от смеха", en: "Rolling on the floor laughing" } },
  { id: "wink", codePoints: ["1f609"], title: { ru: "Подмигивание", en: "Wink" } },
  { id: "blush", codePoints: ["1f60a"], title: { ru: "Смущённая улыбка", en: "Blush" } },
  { id: "heart-eyes", codePoints: ["1f60d"], title: { ru: "Влюблённые глаза", en: "Heart eyes" } },
  { id: "star-struck", codePoints: ["1f929"], title: { ru: "В восторге", en: "Star-struck" } },
  { id: "kiss", codePoints: ["1f618"], title: { ru: "Воздушный поцелуй", en: "Blowing a kiss" } },
  { id: "yum", codePoints: ["1f60b"], title: { ru: "Вкусно", en: "Yum" } },
  { id: "tongue", codePoints: ["1f61b"], title: { ru: "Показываю язык", en: "Tongue out" } },
  { id: "zany", codePoints: ["1f92a"], title: { ru: "Дурачусь", en: "Zany" } },
  { id: "hug", codePoints: ["1f917"], title: { ru: "Обнимаю", en: "Hug" } },
  { id: "thinking", codePoints: ["1f914"], title: { ru: "Задумался", en: "Thinking" } },
  { id: "shush", codePoints: ["1f92b"], title: { ru: "Тсс", en: "Shush" } },
  { id: "neutral", codePoints: ["1f610"], title: { ru: "Без эмоций", en: "Neutral" } },
  { id: "eye-roll", codePoints: ["1f644"], title: { ru: "Закатываю глаза", en: "Eye roll" } },
  { id: "smirk", codePoints: ["1f60f"], title: { ru: "Ухмылка", en: "Smirk" } },
  { id: "relieved", codePoints: ["1f60c"], title: { ru: "Облегчение", en: "Relieved" } },
  { id: "sleepy", codePoints: ["1f634"], title: { ru: "Сплю", en: "Sleeping" } },
  { id: "nerd", codePoints: ["1f913"], title: { ru: "Ботаник", en: "Nerd" } },
  { id: "cool", codePoints: ["1f60e"], title: { ru: "Круто", en: "Cool" } },
  { id: "confused", codePoints: ["1f615"], title: { ru: "В замешательстве", en: "Confused" } },
  { id: "worried", codePoints: ["1f61f"], title: { ru: "Беспокоюсь", en: "Worried" } },
  { id: "astonished", codePoints: ["1f632"], title: { ru: "Изумление", en: "Astonished" } },
  { id: "flushed", codePoints: ["1f633"], title: { ru: "Смущение", en: "Flushed" } },
  { id: "pleading", codePoints: ["1f97a"], title: { ru: "Умоляю", en: "Pleading" } },
  { id: "fearful", codePoints: ["1f628"], title: { ru: "Страшно", en: "Fearful" } },
  { id: "cry", codePoints: ["1f622"], title: { ru: "Грустно", en: "Crying" } },
  { id: "sob", codePoints: ["1f62d"], title: { ru: "Рыдаю", en: "Sobbing" } },
  { id: "scream", codePoints: ["1f631"], title: { ru: "Ужас", en: "Screaming in fear" } },
  { id: "angry", codePoints: ["1f620"], title: { ru: "Сержусь", en: "Angry" } },
  { id: "rage", codePoints: ["1f621"], title: { ru: "В ярости", en: "Enraged" } },
  { id: "exploding-head", codePoints: ["1f92f"], title: { ru: "Взрыв мозга", en: "Mind blown" } },
  { id: "party", codePoints: ["1f973"], title: { ru: "Праздную", en: "Partying" } },
  { id: "clown", codePoints: ["1f921"], title: { ru: "Клоун", en: "Clown" } },
  { id: "skull", codePoints: ["1f480"], title: { ru: "Череп", en: "Skull" } },
  { id: "ghost", codePoints: ["1f47b"], title: { ru: "Привидение", en: "Ghost" } },
  { id: "alien", codePoints: ["1f47d"], title: { ru: "Инопланетянин", en: "Alien" } },
  { id: "robot", codePoints: ["1f916"], title: { ru: "Робот", en: "Robot" } },
  { id: "poop", codePoints: ["1f4a9"], title: { ru: "Какашка", en: "Pile of poo" } },
  { id: "heart", codePoints: ["2764", "fe0f"], title: { ru: "Сердце", en: "Heart" } },
  { id: "broken-heart", codePoints: ["1f494"], title: { ru: "Разбитое сердце", en: "Broken heart" } },
  { id: "sparkling-heart", codePoints: ["1f496"], title: { ru: "Сияющее сердце", en: "Sparkling heart" } },
  { id: "fire", codePoints: ["1f525"], title: { ru: "Огонь", en: "Fire" } },
  { id: "hundred", codePoints: ["1f4af"], title: { ru: "Сто баллов", en: "Hundred points" } },
  { id: "sparkles", codePoints: ["2728"], title: { ru: "Блёстки", en: "Sparkles" } },
  { id: "star", codePoints: ["2b50"], title: { ru: "Звезда", en: "Star" } },
  { id: "rainbow", codePoints: ["1f308"], title: { ru: "Радуга", en: "Rainbow" } },
  { id: "thumbs-up", codePoints: ["1f44d"], title: { ru: "Нравится", en: "Thumbs up" } },
  { id: "thumbs-down", codePoints: ["1f44e"], title: { ru: "Не нравится", en: "Thumbs down" } },
  { id: "clap", codePoints: ["1f44f"], title: { ru: "Аплодисменты", en: "Clapping" } },
  { id: "raised-hands", codePoints: ["1f64c"], title: { ru: "Ура", en: "Raised hands" } },
  { id: "pray", codePoints: ["1f64f"], title: { ru: "Спасибо", en: "Thank you" } },
  { id: "muscle", codePoints: ["1f4aa"], title: { ru: "Сила", en: "Flexed biceps" } },
  { id: "ok-hand", codePoints: ["1f44c"], title: { ru: "Отлично", en: "OK hand" } },
  { id: "wave", codePoints: ["1f44b"], title: { ru: "Привет", en: "Waving hand" } },
  { id: "eyes", codePoints: ["1f440"], title: { ru: "Смотрю", en: "Eyes" } },
  { id: "rocket", codePoints: ["1f680"], title: { ru: "Ракета", en: "Rocket" } },
  { id: "tada", codePoints: ["1f389"], title: { ru: "Хлопушка", en: "Party popper" } },
  { id: "trophy", codePoints: ["1f3c6"], title: { ru: "Кубок", en: "Trophy" } },
  { id: "gift", codePoints: ["1f381"], title: { ru: "Подарок", en: "Gift" } },
  { id: "coffee", codePoints: ["2615"], title: { ru: "Кофе", en: "Coffee" } },
  { id: "cake", codePoints: ["1f370"], title: { ru: "Торт", en: "Cake" } },
  { id: "owl", codePoints: ["1f989"], title: { ru: "Сова", en: "Owl" } },
  { id: "cat", codePoints: ["1f431"], title: { ru: "Котик", en: "Cat" } },
  { id: "dog", codePoints: ["1f436"], title: { ru: "Пёсик", en: "Dog" } },
  { id: "unicorn", codePoints: ["1f984"], title: { ru: "Единорог", en: "Unicorn" } },
] as const satisfies readonly ReactionDefinition[];

export type ReactionType = (typeof REACTIONS)[number]["id"];

/** Every reaction id, in picker order. */
export const REACTION_TYPES = REACTIONS.map((r) => r.id) as [ReactionType, ...ReactionType[]];

/** The reaction a body without reactionType sets (a plain "like"). */
export const DEFAULT_REACTION: ReactionType = "thumbs-up";

const BY_ID: ReadonlyMap<string, ReactionDefinition> = new Map(REACTIONS.map((r) => [r.id, r]));

export function isReactionType(value: unknown): value is ReactionType {
  return typeof value === "string" && BY_ID.has(value);
}

export function reactionOf(id: ReactionType): ReactionDefinition {
  return BY_ID.get(id)!;
}

/** The emoji as text (for alt texts and places without images). */
export function reactionEmoji(id: ReactionType): string {
  return String.fromCodePoint(...reactionOf(id).codePoints.map((h) => parseInt(h, 16)));
}

/** The public URL of a reaction's image (served from public/post-reactions/). */
export function reactionImage(id: ReactionType): string {
  return `/post-reactions/${id}.svg`;
}

/** One entry of public/post-reactions/manifest.json. */
export type ReactionManifestEntry = { reactionType: ReactionType; image: string; title: { ru: string; en: string } };

/** What public/post-reactions/manifest.json lists, in picker order: the code is the source of truth. */
export function reactionManifest(): ReactionManifestEntry[] {
  return REACTIONS.map((r) => ({ reactionType: r.id, image: reactionImage(r.id), title: { ...r.title } }));
}
