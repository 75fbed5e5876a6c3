// Among the most used passwords in public breach corpora (lowercase; the check ignores case),
// plus this app's own name. NIST SP 800-63B asks for new passwords to be checked against such a
// list; a few hundred of the most common ones catch most guesses at little size.
const LIST = `
123456 password 12345678 qwerty 123456789 12345 1234 111111 1234567 dragon 123123 baseball abc123
football monkey letmein 696969 shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael
654321 superman 1qaz2wsx 7777777 121212 000000 qazwsx 123qwe killer trustno1 jordan jennifer
zxcvbnm asdfgh hunter buster soccer harley batman andrew tigger sunshine iloveyou 2000 charlie
robert thomas hockey ranger daniel starwars klaster 112233 george computer michelle jessica pepper
1111 zxcvbn 555555 11111111 131313 freedom 777777 pass maggie 159753 aaaaaa ginger princess joshua
cheese amanda summer love ashley nicole chelsea biteme matthew access yankees 987654321 dallas
austin thunder taylor matrix mobilemail mom monitor monitoring montana moon moscow password1
password12 password123 password1234 passw0rd p@ssword p@ssw0rd pa55word pa55w0rd passpass
password! password1! qwerty123 qwerty1 qwertyui qwerty12 qwerty1234 qwe123 qweasd qweasdzxc
1q2w3e4r 1q2w3e4r5t 1q2w3e 1qazxsw2 zaq12wsx zaq1zaq1 zaq1xsw2 abcd1234 abc12345 abcdefg abcdefgh
abcdef 123abc a1b2c3d4 a1b2c3 aa123456 asdf1234 asdfasdf asdfghjkl asdfghjk 1234qwer 12qwaszx
iloveyou1 iloveyou2 princess1 sunshine1 football1 baseball1 welcome welcome1 welcome123 letmein1
letmein123 admin admin123 admin1234 administrator root toor changeme changeme1 secret secret123
default guest login login123 user user123 test test123 test1234 testing demo demo123 temp temp123
master123 monkey123 dragon123 shadow123 superman1 batman123 whatever 11223344 12341234 12344321
123654789 147258369 159357 987654 88888888 99999999 00000000 1234512345 123456123456 1122334455
12121212 123123123 321321 456789 789456 789456123 147258 258369 369258147 66666666 22222222
33333333 44444444 55555555 77777777 12345678910 0123456789 01234567 87654321 1111111111 123456a
123456q a123456 a12345678 q1w2e3r4 q1w2e3r4t5 q1w2e3r4t5y6 zxcvbnm1 asd123 qaz123 lovely loveme
love123 iloveu hello hello123 hello1 hellohello starwars1 pokemon pokemon1 minecraft minecraft1
fortnite roblox superstar rockstar football12 soccer12 hockey12 liverpool arsenal chelsea1
barcelona realmadrid manchester michael1 jordan23 charlie1 daniel1 jessica1 ashley1 nicole1
summer1 winter winter1 spring autumn monday friday sunday january february december flower flowers
butterfly chocolate cookie cookies banana orange apple purple yellow silver golden diamond angel
angel1 angels baby baby123 babygirl princesa tequiero teamo loveyou forever friends family family1
freedom1 blessed blessing jesus jesus1 christ god123 faith heaven matrix1 killer1 hunter1 hunter2
ranger1 thunder1 tiger tigers lion eagle eagles falcon dolphin dolphins horse cowboy cowboys
yankees1 lakers jordan1 kobe24 nascar mercedes ferrari porsche corvette mustang1 harley1 yamaha
computer1 internet samsung iphone google facebook twitter linkedin microsoft windows apple123
letmein! qwerty! 1qaz!qaz !qaz2wsx zaq!2wsx p@ssword1 trustme believe nothing something anything
everything whatever1 computer12 office office123 company company1 staff staff123 staffapp
staff-app employee manager support helpdesk service server database backup security secure
secure123 private private1 password2 password3 password7 password9 1password mypassword mypass
yourpassword newpassword oldpassword nopassword changeit letmein2 openup opensesame sesame access1
access123 accessdenied
`;

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(LIST.split(/\s+/).filter(Boolean));
